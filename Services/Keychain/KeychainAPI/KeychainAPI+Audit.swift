public import Foundation

extension KeychainAPI {
    /// `GET /v1/admin/audit`: a device's latest audit entries, newest last.
    public struct AuditEntries: Codable, Hashable, Sendable {
        public var entries: [AuditEntry]

        public init(entries: [AuditEntry]) {
            self.entries = entries
        }
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

        public init(time: Date, device: String, app: String, operation: String, status: Int32?, name: String, rule: String?) {
            self.time = time
            self.device = device
            self.app = app
            self.operation = operation
            self.status = status
            self.name = name
            self.rule = rule
        }
    }
}
