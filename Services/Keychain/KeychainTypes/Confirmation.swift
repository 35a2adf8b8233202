/// What a Mac's user must do before keychaind can go on with a login-keychain call: keychaind
/// answers errSecInteractionNotAllowed (-25308) with it, the device asks its user (unless the call
/// may show no UI), and calls again.
public enum Confirmation: Codable, Hashable, Sendable {
    /// "APP wants to use your confidential information stored in “ITEM” in your keychain.": the
    /// app is not on the item's access control list; the device calls again with a ``UserApproval``.
    /// `needsPassword`: the app's partition is not on the item's partition list either, so the
    /// user must type the keychain password to allow it ("To allow this, enter the “login”
    /// keychain password.").
    case allowUse(item: String, needsPassword: Bool)
    /// "APP wants to use the “KEYCHAIN” keychain.": the keychain is locked; the device unlocks it
    /// with the password its user types, then calls again.
    case unlock(keychain: String)
}
