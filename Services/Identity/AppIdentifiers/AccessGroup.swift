public import LabErrors

/// The name of a keychain access group, such as `ABCDE12345.com.example.SharedItems` or
/// `group.com.example.AppSuite`. Never empty: the empty string is always an invalid group.
public struct AccessGroup: IdentifierText, Comparable {
    /// The group name; securityd compares it exactly and case-sensitively.
    public let rawValue: String

    /// Accepts any non-empty name.
    public init(_ rawValue: String) throws(IdentityError) {
        guard !rawValue.isEmpty else {
            throw IdentityError(.malformedValue, "the empty string is not a valid access group")
        }
        self.rawValue = rawValue
    }

    /// The group every app on an Apple platform may read token items from; never writable.
    public static let token = AccessGroup(unchecked: "com.apple.token")

    /// The group of the website passwords Safari saves and shared web credentials use.
    public static let savedPasswords = AccessGroup(unchecked: "com.apple.cfnetwork")

    /// The group of passkeys' private keys, which only the system's passkey service uses: no
    /// profile grants a group without a team prefix to a third-party app.
    public static let passkeys = AccessGroup(unchecked: "com.apple.webkit.webauthn")

    /// A name the lab files items under itself (never one an app holds); not checked.
    package init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }
}
