public import KeychainTypes

/// A SecItem call that ends with a non-zero status, and the rule that decided it.
///
/// The reason is for logs and `kclab explain`; the caller of the C API sees only the status, as on
/// a real device.
public struct SecItemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rules a SecItem call can be refused by: one vocabulary for keychaind's metrics, its
    /// audit log and `kclab explain` (a status alone says too little: -50 has thirty causes).
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// The caller does not hold the access group it names, or holds none it may use.
        case accessGroup = "access-group"
        /// A key, a combination of keys or a value the call does not take.
        case queryForm = "query-form"
        /// An attribute or class the item kind does not have, or a value of the wrong type.
        case attribute
        /// Nothing matches in the caller's groups.
        case noMatch = "no-match"
        /// Nothing matches in the caller's groups, and a matching item is in a group it does not hold.
        case otherGroup = "other-group"
        /// An item with the same primary key exists.
        case duplicate
        /// The item's protection class is unavailable while the device is locked.
        case deviceLocked = "device-locked"
        /// A when-passcode-set item on a device with no passcode.
        case passcodeRequired = "passcode-required"
        /// A Mac's login keychain: the app is not on the item's access control list.
        case loginKeychainAccess = "login-keychain-access"
        /// A Mac's login keychain is locked.
        case loginKeychainLocked = "login-keychain-locked"
        /// What an App Clip may not do with the keychain.
        case appClip = "app-clip"
        /// The app is entitled com.apple.private.keychain.deny.
        case keychainDenied = "keychain-deny"
        /// Item data over the 1 MiB securityd takes.
        case dataSize = "data-size"
        /// The keychain database failed.
        case database

        public var description: String { rawValue }
    }

    /// The OSStatus a real device would return.
    public let status: SecStatus
    /// The rule that decided.
    public let rule: Rule
    /// What the rule found, naming the key, group or value involved (never a secret).
    public let reason: String
    /// On a Mac's login keychain: what the device's user must do first (allow the app the use of
    /// an item, or unlock the keychain), for the device to ask.
    public let confirmation: Confirmation?

    /// An error with its status, rule and reason.
    public init(_ status: SecStatus, _ rule: Rule, _ reason: String, confirmation: Confirmation? = nil) {
        self.status = status
        self.rule = rule
        self.reason = reason
        self.confirmation = confirmation
    }

    /// `errSecParam (-50): reason`.
    public var description: String { "\(status): \(reason)" }
}
