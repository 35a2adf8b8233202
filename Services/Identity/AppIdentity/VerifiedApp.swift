/// What a valid signature establishes about an app.
public struct VerifiedApp: Hashable, Sendable {
    /// The application identifier (`PREFIX.bundle.id`).
    public let appID: AppID
    /// The team that signed it.
    public let teamID: TeamID
    /// The signed, profile-approved entitlements.
    public let entitlements: Entitlements
    /// The profile it was signed under; `nil` for a Mac app signed with Developer ID alone, whose
    /// entitlements no profile validated.
    public let profile: ProvisioningProfile?
    /// What the signature covers (digests of the executable, Info.plist and profile).
    public let codeDirectory: CodeDirectory

    /// The app's keychain access groups in Apple's order, worked out once: keychaind decides
    /// every call of the app against them.
    public let accessGroups: [AccessGroup]

    public init(appID: AppID, teamID: TeamID, entitlements: Entitlements, profile: ProvisioningProfile?, codeDirectory: CodeDirectory) {
        self.appID = appID
        self.teamID = teamID
        self.entitlements = entitlements
        self.profile = profile
        self.codeDirectory = codeDirectory
        accessGroups = entitlements.accessGroups(validatedByProfile: profile != nil)
    }

    /// The platform the app was built for: its profile's, and a Mac's for an app without one
    /// (only a Mac installs it). An iOS app may run on a Mac (Apple silicon), never the reverse.
    public var builtFor: Platform {
        guard let profile else { return .macos }
        return profile.platforms.contains(Platform.macos.profileName) ? .macos : .ios
    }

    /// Whether a profile validated the entitlements (always, but for a Mac app signed without one).
    public var entitlementsValidated: Bool { profile != nil }

    /// Whether the signature claims an application identifier, validated or not: a Mac client that
    /// does but holds no group is securityd's "entitlement failure" and gets no token group.
    public var claimsApplicationIdentifier: Bool { entitlements.applicationIdentifier != nil }

    /// The app's associated-domains entries.
    public var associatedDomains: [String] { entitlements.associatedDomains }
}
