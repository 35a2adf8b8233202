/// What a valid signature establishes about an app.
public struct VerifiedApp: Hashable, Sendable {
    /// The application identifier (`PREFIX.bundle.id`).
    public let appID: AppID
    /// The team that signed it.
    public let teamID: TeamID
    /// The signed, profile-approved entitlements.
    public let entitlements: Entitlements
    /// The profile it was signed under.
    public let profile: ProvisioningProfile
    /// What the signature covers (digests of the executable, Info.plist and profile).
    public let codeDirectory: CodeDirectory

    /// The app's keychain access groups in Apple's order.
    public var accessGroups: [AccessGroup] { entitlements.accessGroups }

    /// The app's associated-domains entries.
    public var associatedDomains: [String] { entitlements.associatedDomains }
}
