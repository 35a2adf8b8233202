public import Foundation

extension KeychainAPI {
    /// `GET /v1/admin/audit`: some of a device's audit entries, oldest first, and where a reader
    /// goes on from.
    public struct AuditEntries: Codable, Hashable, Sendable {
        public var entries: [AuditEntry]
        /// The sequence number to read on from (`after=`): the last entry the read looked at, of
        /// any device, or the latest once it reached the end.
        public var next: Int64
        /// The sequence number of keychaind's latest entry, of any device (0 before the first).
        public var latest: Int64
        /// How many entries after `after`, of any device, keychaind no longer kept in memory:
        /// only its audit file (`kclab logs audit`) has them.
        public var dropped: Int64

        public init(entries: [AuditEntry], next: Int64 = 0, latest: Int64 = 0, dropped: Int64 = 0) {
            self.entries = entries
            self.next = next
            self.latest = latest
            self.dropped = dropped
        }

        /// Whether keychaind holds entries after this answer: read again with `after=next`.
        public var hasMore: Bool { next < latest }
    }

    /// One line of keychaind's audit log (`STATE/audit.jsonl`): a decision, never a value.
    public struct AuditEntry: Codable, Hashable, Sendable {
        public var time: Date
        /// The device's UDID.
        public var device: String
        /// The app's application identifier, or its reference when keychaind does not know it.
        public var app: String
        /// `SecItemAdd`, `SecItemCopyMatching`, …, or `register` for an app's registration.
        public var operation: String
        /// The OSStatus of a call keychaind made; nil when it refused the call before the keychain.
        public var status: Int32?
        /// The status's name (`errSecItemNotFound`), or the refusal's code (`unknownApp`).
        public var name: String
        /// The rule that decided a refusal.
        public var rule: String?
        /// Its place in keychaind's audit: its first entry since it started is 1, each next one
        /// 1 more, whatever the device (nil where keychaind gave none).
        public var sequence: Int64?

        public init(
            time: Date,
            device: String,
            app: String,
            operation: String,
            status: Int32?,
            name: String,
            rule: String?,
            sequence: Int64? = nil
        ) {
            self.time = time
            self.device = device
            self.app = app
            self.operation = operation
            self.status = status
            self.name = name
            self.rule = rule
            self.sequence = sequence
        }
    }
}
