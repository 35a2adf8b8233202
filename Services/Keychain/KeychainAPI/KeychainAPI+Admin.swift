public import AppIdentity
public import Foundation
public import KeychainTypes

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

        /// The synchronizable items only, counted again.
        public var synchronizableOnly: AdminItems {
            let synced = items.filter(\.synchronizable)
            return AdminItems(items: synced, counts: Dictionary(synced.map { ($0.group, 1) }, uniquingKeysWith: +))
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

extension KeychainAPI {
    /// `POST /v1/admin/explain`: why an app of a device can or cannot see the items a query names.
    public struct ExplainRequest: Codable, Hashable, Sendable {
        /// The device's UDID; it must have reported its state.
        public var device: String
        /// The app's signed files, verified as a registration is.
        public var app: AppRegistration
        public var query: [String: SecValue]

        public init(device: String, app: AppRegistration, query: [String: SecValue]) {
            self.device = device
            self.app = app
            self.query = query
        }
    }

    /// The answer: the app's groups in order, what SecItemCopyMatching answers it (without data),
    /// and which groups hold items the query matches (counts only).
    /// A Mac's login keychain as `POST /v1/admin/explain` describes it for one app.
    public struct LoginKeychainExplanation: Codable, Hashable, Sendable {
        public var isLocked: Bool
        /// The app's partition (`teamid:TEAMID`, `apple:`, `apple-tool:`).
        public var partition: String
        /// The items the query matches there, by their attributes.
        public var items: [FileKeychainDecision]

        public init(isLocked: Bool, partition: String, items: [FileKeychainDecision]) {
            self.isLocked = isLocked
            self.partition = partition
            self.items = items
        }
    }

    public struct Explanation: Codable, Hashable, Sendable {
        public var appID: AppID?
        /// Why the app's signature is not valid, when it is not (then nothing else is filled).
        public var refusals: [String]
        public var accessGroups: [AccessGroup]
        public var platform: String
        public var osVersion: String
        public var isLocked: Bool
        public var hasPasscode: Bool
        /// Whether a group the app does not belong to is errSecMissingEntitlement (iOS 13+, macOS
        /// 10.15+) rather than errSecItemNotFound.
        public var refusesForeignGroups: Bool
        public var status: Int32
        public var name: String
        public var reason: String?
        /// Items of the device's keychains the query matches, by group, whoever may see them.
        public var matchingByGroup: [String: Int]
        /// The app's latest calls on this device, from keychaind's audit log (newest last).
        public var recentCalls: [KeychainDecision]? = nil
        /// For a query that names no `kSecAttrSynchronizable`: how many synchronizable items it
        /// would match with `kSecAttrSynchronizableAny`, which it does not read (nil: none).
        public var synchronizableMatches: Int? = nil
        /// For a Mac app on a Mac: its login keychain, and what each matching item's access
        /// control list decides for the app.
        public var loginKeychain: LoginKeychainExplanation? = nil

        public init(
            appID: AppID?,
            refusals: [String],
            accessGroups: [AccessGroup],
            platform: String,
            osVersion: String,
            isLocked: Bool,
            hasPasscode: Bool,
            refusesForeignGroups: Bool,
            status: Int32,
            name: String,
            reason: String?,
            matchingByGroup: [String: Int]
        ) {
            self.appID = appID
            self.refusals = refusals
            self.accessGroups = accessGroups
            self.platform = platform
            self.osVersion = osVersion
            self.isLocked = isLocked
            self.hasPasscode = hasPasscode
            self.refusesForeignGroups = refusesForeignGroups
            self.status = status
            self.name = name
            self.reason = reason
            self.matchingByGroup = matchingByGroup
        }
    }
}

extension KeychainAPI {
    /// `POST /v1/admin/reset`: how many live items the lab's keychains held before the reset.
    public struct ResetAnswer: Codable, Hashable, Sendable {
        public var removed: Int

        public init(removed: Int) {
            self.removed = removed
        }
    }
}
