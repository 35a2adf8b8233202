public import AppIdentity

/// How an app's provisioning profile is made.
public struct ProfileSpec: Hashable, Sendable {
    /// Development (device list, `get-task-allow`) or distribution.
    public var kind: ProvisioningProfile.Kind
    /// For development profiles, the devices it lists (IDs, or UDIDs when read); `nil` lists every device of the world.
    public var devices: [String]?
    /// How many days it is valid from when it is made.
    public var validDays: Int
    /// Makes a profile that expired yesterday, to show the refusal.
    public var expired: Bool
    /// Entitlements the portal adds to the profile beyond what it gives every app of the team, as
    /// Apple grants managed capabilities on request (an array adds its elements to the profile's).
    /// How a world lets an app claim what securityd's own tests claim.
    public var grants: Entitlements
    /// `false` for `profile: none`: a Mac app signed with its team's certificate and no profile
    /// (Developer ID), whose entitlements nothing validates. Xcode then signs no identifiers.
    public var exists: Bool

    /// A profile description; the default is a development profile for every device, valid a year.
    public init(
        kind: ProvisioningProfile.Kind = .development,
        devices: [String]? = nil,
        validDays: Int = 365,
        expired: Bool = false,
        grants: Entitlements = Entitlements(),
        exists: Bool = true
    ) {
        self.kind = kind
        self.devices = devices
        self.validDays = validDays
        self.expired = expired
        self.grants = grants
        self.exists = exists
    }
}
