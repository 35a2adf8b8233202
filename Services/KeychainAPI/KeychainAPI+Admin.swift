public import Foundation

extension KeychainAPI {
    /// `GET /v1/admin/items`: the items of some keychains as the lab's operator sees them.
    public struct AdminItems: Codable, Hashable, Sendable {
        public var items: [AdminItem]
        /// How many of the items each access group holds.
        public var counts: [String: Int]

        public init(items: [AdminItem], counts: [String: Int]) {
            self.items = items
            self.counts = counts
        }

        /// The JSON form: dates ISO 8601, keys sorted.
        public static func encoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }

        /// Reads the JSON form.
        public static func decoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }

    /// One item's metadata; its data only when the operator asked to reveal it.
    public struct AdminItem: Codable, Hashable, Sendable {
        public var keychain: String
        public var itemClass: String
        public var group: String
        public var account: String?
        public var service: String?
        public var server: String?
        public var label: String?
        public var synchronizable: Bool
        public var protection: String?
        public var created: Date?
        public var modified: Date?
        /// The secret, base64 in JSON; nil unless revealed.
        public var data: Data?

        public init(
            keychain: String,
            itemClass: String,
            group: String,
            account: String?,
            service: String?,
            server: String?,
            label: String?,
            synchronizable: Bool,
            protection: String?,
            created: Date?,
            modified: Date?,
            data: Data?
        ) {
            self.keychain = keychain
            self.itemClass = itemClass
            self.group = group
            self.account = account
            self.service = service
            self.server = server
            self.label = label
            self.synchronizable = synchronizable
            self.protection = protection
            self.created = created
            self.modified = modified
            self.data = data
        }
    }
}
