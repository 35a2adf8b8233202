public import AppIdentity

/// A KeychainLab world: the teams, their apps, the devices that run them and the websites they
/// share credentials with, as one YAML file declares them (docs/world.md).
public struct World: Hashable, Sendable {
    /// A name for the world, for messages; defaults to the file's base name.
    public var name: String
    /// The development teams.
    public var teams: [Team]
    /// The apps, each signed by one team.
    public var apps: [App]
    /// The devices.
    public var devices: [Device]
    /// The websites.
    public var websites: [Website]

    /// A world from its parts (validated by ``World/validated()``).
    public init(name: String, teams: [Team], apps: [App], devices: [Device], websites: [Website]) {
        self.name = name
        self.teams = teams
        self.apps = apps
        self.devices = devices
        self.websites = websites
    }

    /// The team with this ID.
    public func team(_ id: TeamID) -> Team? {
        teams.first { $0.id == id }
    }

    /// The app with this bundle ID (its first build, when it has one per platform).
    public func app(_ bundleID: BundleID) -> App? {
        apps.first { $0.bundleID == bundleID }
    }

    /// The build of `bundleID` a device of `platform` installs: its own platform's, or on a Mac the
    /// iOS build when there is no Mac build (an Apple silicon Mac runs iPhone apps).
    public func app(_ bundleID: BundleID, on platform: Platform) -> App? {
        let builds = apps.filter { $0.bundleID == bundleID }
        return builds.first { $0.platform == platform } ?? (platform == .macos ? builds.first : nil)
    }

    /// The device with this ID.
    public func device(_ id: String) -> Device? {
        devices.first { $0.id == id }
    }
}

/// A development team.
public struct Team: Hashable, Sendable {
    /// The team ID Apple issued.
    public var id: TeamID
    /// The team's name, as in its certificate (`Apple Development: NAME (ID)`).
    public var name: String
    /// The application groups registered to the team; its profiles may grant these and no others.
    public var appGroups: [String]
    /// The stand-in for Apple's own signing of its platform apps (the browser): its profiles may
    /// also grant Apple's private keychain group `com.apple.cfnetwork`. True for team `0000000000`
    /// (``TeamID/platform``) and only for it, whether the world declares it or not.
    public var isPlatform: Bool { id == .platform }

    /// A team from its parts.
    public init(id: TeamID, name: String, appGroups: [String] = []) {
        self.id = id
        self.name = name
        self.appGroups = appGroups
    }
}
