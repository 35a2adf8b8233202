/// What a login-keychain item's access control list decides for one app, as `kclab explain item`
/// shows it.
public struct FileKeychainDecision: Codable, Hashable, Sendable {
    /// How the app may use the item's secret.
    public enum Access: String, Codable, Hashable, Sendable {
        /// On the list, its partition too: no prompt.
        case trusted
        /// Not on the list: the Mac asks its user (Always Allow, Deny, Allow).
        case asks
        /// Its partition is not on the list either: the user must type the keychain password.
        case asksWithPassword = "asks-with-password"
    }

    /// The item's name, as a prompt shows it.
    public var item: String
    public var trustedApps: [String]
    public var partitions: [String]
    public var access: Access

    public init(item: String, trustedApps: [String], partitions: [String], access: Access) {
        self.item = item
        self.trustedApps = trustedApps
        self.partitions = partitions
        self.access = access
    }
}
