public import AppIdentity
public import Foundation

/// An app a team signs: its identifiers, entitlements and profile.
public struct App: Hashable, Sendable {
    /// The bundle ID.
    public var bundleID: BundleID
    /// A display name; defaults to the last component of the bundle ID.
    public var name: String
    /// The team that signs it.
    public var team: TeamID
    /// A legacy bundle seed ID used as the app ID prefix instead of the team ID (seed 003).
    public var bundleSeedID: TeamID?
    /// The platform it is built for.
    public var platform: Platform
    /// Whether its profile's App ID is explicit or a wildcard (seed 003's caveat).
    public var appIDKind: AppIDKind
    /// The profile it is signed under.
    public var profile: ProfileSpec
    /// The entitlements as written in its `.entitlements` file, build variables already expanded.
    public var entitlements: Entitlements
    /// A file to ship as the executable, resolved against the world file's folder.
    public var executable: URL?
    /// A program built with KeychainLab (`Devices/Apps`) to ship as the executable, such as
    /// `keychainlab-app`; found beside kclab when the world is built. With neither this nor
    /// ``executable``, the app gets a small placeholder script.
    public var program: String?
    /// Signs the code with this other team's certificate instead of its own team's, to show the refusal.
    public var signedBy: TeamID?
    /// Deliberate damage, for refusal tests and demos.
    public var tampering: Set<Tampering>
    /// A later version of the app that a device can install over this one (seed 004).
    public var update: AppUpdate?
    /// Whether this is the later version (``updated``) rather than the one devices install first.
    public var isUpdate = false
    /// Whether this is the Mac build of an app the world also builds for iOS (set when the world is
    /// loaded): one bundle ID, a build per platform, each with its own entitlements and profile, as
    /// Xcode signs a multiplatform target. A Mac installs this build; an iPhone the iOS one.
    public var isMacBuild = false

    /// An app from its parts.
    public init(
        bundleID: BundleID,
        name: String,
        team: TeamID,
        bundleSeedID: TeamID? = nil,
        platform: Platform = .ios,
        appIDKind: AppIDKind = .explicit,
        profile: ProfileSpec = ProfileSpec(),
        entitlements: Entitlements = Entitlements(),
        executable: URL? = nil,
        program: String? = nil,
        signedBy: TeamID? = nil,
        tampering: Set<Tampering> = []
    ) {
        self.bundleID = bundleID
        self.name = name
        self.team = team
        self.bundleSeedID = bundleSeedID
        self.platform = platform
        self.appIDKind = appIDKind
        self.profile = profile
        self.entitlements = entitlements
        self.executable = executable
        self.program = program
        self.signedBy = signedBy
        self.tampering = tampering
    }

    /// The later version as an app of its own: the same bundle, signed under the update's prefix and
    /// entitlements.
    public var updated: App? {
        guard let update else { return nil }
        var app = self
        app.bundleSeedID = update.bundleSeedID
        app.entitlements = update.entitlements
        app.update = nil
        app.isUpdate = true
        return app
    }

    /// The app ID prefix: the bundle seed ID when there is one, else the team ID.
    public var appIDPrefix: TeamID {
        bundleSeedID ?? team
    }

    /// The application identifier: prefix plus bundle ID.
    public var appID: AppID {
        AppID(prefix: appIDPrefix, bundleID: bundleID)
    }

    /// The variables Xcode expands in this app's entitlements.
    public var buildVariables: BuildVariables {
        BuildVariables(appIDPrefix: appIDPrefix, team: team, bundleID: bundleID)
    }

    /// The entitlements Xcode signs: the declared ones plus, unless declared, the application
    /// identifier, the team identifier and `get-task-allow` (true for development signing).
    ///
    /// Declared values win so that a world can forge an application identifier and show the refusal.
    public var signedEntitlements: Entitlements {
        var signed = entitlements
        // Without a profile Xcode signs only what the app declares.
        guard profile.exists else { return signed }
        let defaults: [(String, PlistValue)] = [
            (platform.applicationIdentifierKey, .string(appID.rawValue)),
            (EntitlementKey.teamIdentifier, .string(team.rawValue)),
            (EntitlementKey.getTaskAllow, .bool(profile.kind == .development)),
        ]
        for (key, value) in defaults where signed[key] == nil {
            signed[key] = value
        }
        return signed
    }
}

/// A later version of an app, installed over it with `kclab app update`: the same bundle ID, team and
/// program, with another app ID prefix or other entitlements. Seed 004's lesson is an update that
/// moves an app from a legacy bundle seed ID to its team ID and so loses sight of its items.
public struct AppUpdate: Hashable, Sendable {
    /// The update's bundle seed ID; `nil` signs it under the team ID.
    public var bundleSeedID: TeamID?
    /// The update's entitlements, build variables expanded with the update's prefix.
    public var entitlements: Entitlements

    public init(bundleSeedID: TeamID? = nil, entitlements: Entitlements = Entitlements()) {
        self.bundleSeedID = bundleSeedID
        self.entitlements = entitlements
    }
}

/// Whether a profile's App ID names one app or covers many.
public enum AppIDKind: String, Hashable, Sendable, CaseIterable {
    /// `TEAMID.com.example.AppOne`.
    case explicit
    /// `TEAMID.*`: cannot carry app groups or associated domains.
    case wildcard
}

/// Deliberate damage done to a bundle after (or while) signing it, so that tests and demos can
/// show each refusal a device makes.
public enum Tampering: String, Hashable, Sendable, CaseIterable {
    /// The readable entitlements file gains a keychain group after signing.
    case editEntitlements = "edit-entitlements"
    /// The executable is replaced after signing.
    case replaceExecutable = "replace-executable"
    /// The profile is signed by a look-alike CA the devices do not trust.
    case untrustedProfile = "untrusted-profile"
    /// The team certificate is issued by a look-alike CA the devices do not trust.
    case untrustedCertificate = "untrusted-certificate"
}
