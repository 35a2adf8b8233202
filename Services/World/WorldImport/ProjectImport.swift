public import AppIdentity
public import Foundation
public import LabErrors
public import XcodeProject

/// An Xcode project as a world (`kclab world import`): its team, every app and app-extension
/// target with the entitlements Xcode would sign for one configuration, an iPhone and a Mac to
/// install them on, and a website for every associated domain. What cannot be resolved is said
/// in ``notes``, never guessed.
public struct ProjectImport: Sendable {
    /// One target, as the world declares it.
    public struct ImportedApp: Sendable, Hashable {
        public var target: String
        public var bundleID: BundleID
        public var team: TeamID
        public var platform: Platform
        /// The target's `.entitlements` file, every build setting in it expanded.
        public var entitlements: [String: PlistValue]
        /// The file they came from (relative to the project's folder), if any.
        public var entitlementsFile: String?
        /// The real profile it is signed under, when one was given (`--profile`).
        public var profile: ImportedProfile?

        public var appID: AppID { AppID(prefix: profile?.bundleSeedID ?? team, bundleID: bundleID) }

        /// The capabilities the target's entitlements claim beyond what the lab's profiles give
        /// every app (aps-environment, iCloud, AutoFill…): Xcode's automatic signing registers
        /// them on the App ID, so its profile grants them, and the world's must too.
        public var capabilities: [String: PlistValue] {
            entitlements.filter { !ImportedProfile.givenByRule.contains($0.key) }
        }
    }

    public var projectName: String
    public var configuration: String
    /// What the world was imported from, for its header: the project, the entitlements file, the profile.
    public var origin: String
    public var apps: [ImportedApp]
    /// What was skipped or could not be resolved, one sentence each.
    public var notes: [String]
    /// Whether the Mac installs the iOS apps too (as an Apple silicon Mac runs them), so that one
    /// app runs on an iPhone and on a Mac: `kclab test`'s test host.
    public var macRunsIOSApps = false

    /// Imports `project` built with `configuration` (default: the project's first, as
    /// `xcodebuild` picks it for a run), with `team` over every target's `DEVELOPMENT_TEAM` and
    /// `settings` over every target's (as `xcodebuild NAME=VALUE` sets them). Without a
    /// configuration named, one the project's files do not resolve (a git-ignored `.xcconfig`)
    /// gives way to the next that does, and the notes say which, and what was missing.
    public init(
        _ project: XcodeProject,
        configuration: String? = nil,
        team: TeamID? = nil,
        settings: [String: String] = [:]
    ) throws(XcodeProjectError) {
        guard let first = configuration ?? project.configurations.first else {
            throw XcodeProjectError(.shape, "the project has no build configuration")
        }
        guard project.configurations.contains(first) else {
            throw XcodeProjectError(.shape, "no configuration '\(first)': the project has \(project.configurations.joined(separator: ", "))")
        }
        var attempt = Self.attempt(project, configuration: first, team: team, settings: settings)
        if configuration == nil, !attempt.resolves {
            let others = project.configurations.filter { $0 != first }
            if let other = others.lazy.map({ Self.attempt(project, configuration: $0, team: team, settings: settings) }).first(where: \.resolves) {
                let missing = attempt.problems.isEmpty ? "no target imported" : attempt.problems.joined(separator: "; ")
                attempt = other
                attempt.notes.insert(
                    "configuration \(first) does not resolve (\(missing)): imported configuration \(other.configuration) instead; "
                        + "pass --configuration \(first) with --set NAME=VALUE for what is missing to import it",
                    at: 0
                )
            }
        }
        projectName = project.name
        self.configuration = attempt.configuration
        origin = "the Xcode project \(project.name) (configuration \(attempt.configuration))"
        apps = attempt.apps
        notes = attempt.notes
        if apps.isEmpty {
            let hint =
                configuration == nil && project.configurations.count > 1
                ? " (no configuration resolves: pass --configuration NAME and --set NAME=VALUE)" : ""
            throw XcodeProjectError(.shape, "no app or app-extension target could be imported\(hint): \(notes.joined(separator: "; "))")
        }
    }

    /// One configuration's apps and notes.
    private struct Attempt {
        var configuration: String
        var apps: [ImportedApp] = []
        var notes: [String] = []
        /// What the project's files could not resolve for the configuration.
        var problems: [String] = []
        /// Whether it imports apps, with every file it names read.
        var resolves: Bool { !apps.isEmpty && problems.isEmpty }
    }

    private static func attempt(_ project: XcodeProject, configuration: String, team: TeamID?, settings: [String: String]) -> Attempt {
        var attempt = Attempt(configuration: configuration)
        attempt.problems = project.problems[configuration] ?? []
        attempt.notes = attempt.problems
        // A scratch import gathers the targets; the real one keeps the result.
        var scratch = ProjectImport(projectName: project.name, configuration: configuration)
        // One bundle ID may have a build per platform (a multiplatform target, or an iOS target and
        // its Mac twin), not two builds for one platform.
        var seen: Set<String> = []
        for target in project.targets {
            guard target.isSignedWithEntitlements else {
                attempt.notes.append("target \(target.name) (\(target.productType)) skipped: \(target.skipReason)")
                continue
            }
            for app in scratch.importTarget(target, of: project, team: team, settings: settings) {
                guard seen.insert("\(app.bundleID) \(app.platform)").inserted else {
                    attempt.notes.append(
                        "target \(target.name): \(app.bundleID) is already another target's bundle ID for \(app.platform.rawValue): skipped"
                    )
                    continue
                }
                attempt.apps.append(app)
            }
        }
        attempt.notes += scratch.notes
        return attempt
    }

    private init(projectName: String, configuration: String) {
        self.projectName = projectName
        self.configuration = configuration
        origin = ""
        apps = []
        notes = []
    }

    /// One app from its `.entitlements` file, its bundle ID and its team (`kclab world import
    /// --entitlements`): the entitlements as the file has them, for the world to expand
    /// `$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)` and `$(PRODUCT_BUNDLE_IDENTIFIER)` as
    /// Xcode would.
    public init(entitlements url: URL, bundleID: BundleID, team: TeamID, platform: Platform = .ios) throws(XcodeProjectError) {
        self.init(entitlements: try Self.entitlements(at: url), bundleID: bundleID, team: team, platform: platform, file: url.lastPathComponent)
    }

    /// One app signed under a real profile, with the entitlements of the file at `url` when given.
    public init(profile: ImportedProfile, entitlements url: URL?) throws(XcodeProjectError) {
        guard let url else {
            self.init(profile: profile)
            return
        }
        self.init(profile: profile, entitlements: try Self.entitlements(at: url), file: url.lastPathComponent)
    }

    /// The entitlements of an `.entitlements` file, as written (build settings unexpanded).
    static func entitlements(at url: URL) throws(XcodeProjectError) -> [String: PlistValue] {
        do {
            return try Entitlements(propertyList: try Self.read(url)).values
        } catch {
            throw XcodeProjectError(.unreadable, "\(url.path) is not an entitlements file: \(error)")
        }
    }

    /// One app signed under a real profile: its team, prefix, App ID, platform and grants from
    /// `profile`, its entitlements `values` (from a file named `file`, when they are).
    public init(profile: ImportedProfile, entitlements values: [String: PlistValue] = [:], file: String? = nil) {
        self.init(entitlements: values, bundleID: profile.bundleID, team: profile.team, platform: profile.platform, file: file)
        apps[0].profile = profile
        configuration = "as provisioned"
        origin = "a provisioning profile for \(profile.bundleID) (team \(profile.team))\(file.map { " and \($0)" } ?? "")"
        notes = profile.notes
        if file == nil {
            notes.append("no --entitlements: the app claims only what Xcode signs by default; give the target's .entitlements file")
        }
    }

    /// One app whose entitlements are `values` (from a file named `file`, when they are).
    public init(entitlements values: [String: PlistValue], bundleID: BundleID, team: TeamID, platform: Platform = .ios, file: String? = nil) {
        projectName = bundleID.rawValue.split(separator: ".").last.map(String.init) ?? "app"
        configuration = "as signed"
        origin = file.map { "the entitlements file \($0) of \(bundleID)" } ?? "the entitlements of \(bundleID)"
        apps = [
            ImportedApp(
                target: projectName,
                bundleID: bundleID,
                team: team,
                platform: platform,
                entitlements: values,
                entitlementsFile: file
            )
        ]
        notes = []
    }

    /// The target's build for each platform it supports, as world apps (with a note for each
    /// that cannot be imported, saying why).
    private mutating func importTarget(
        _ target: XcodeProject.Target,
        of project: XcodeProject,
        team: TeamID?,
        settings given: [String: String]
    ) -> [ImportedApp] {
        var overrides = given
        if let team { overrides["DEVELOPMENT_TEAM"] = team.rawValue }
        let probe = BuildSettings(project: project, target: target, configuration: configuration, sdk: "iphoneos", overrides: overrides)
        let platforms = Self.platforms(sdkRoot: probe.value("SDKROOT"), supported: probe.value("SUPPORTED_PLATFORMS"))
        if let note = Self.standIn(sdkRoot: probe.value("SDKROOT")) { notes.append("target \(target.name): \(note)") }
        return platforms.compactMap { importBuild(target, for: $0, of: project, overrides: overrides, multiplatform: platforms.count > 1) }
    }

    /// The target built for `platform` as a world app, or nil (with a note saying why).
    private mutating func importBuild(
        _ target: XcodeProject.Target,
        for platform: Platform,
        of project: XcodeProject,
        overrides: [String: String],
        multiplatform: Bool
    ) -> ImportedApp? {
        let name = multiplatform ? "\(target.name) (\(platform.rawValue))" : target.name
        let settings = BuildSettings(
            project: project,
            target: target,
            configuration: configuration,
            sdk: platform == .macos ? "macosx" : "iphoneos",
            overrides: overrides
        )
        func skip(_ reason: String) -> ImportedApp? {
            let missing = settings.unresolved.map { "$(\($0))" }.joined(separator: ", ")
            let hint = missing.isEmpty ? "" : " (\(missing) set nowhere in the project: give --set NAME=VALUE)"
            notes.append("target \(name): \(reason)\(hint): skipped")
            return nil
        }
        guard let identifier = settings.value("PRODUCT_BUNDLE_IDENTIFIER"), !identifier.isEmpty else {
            return skip("no PRODUCT_BUNDLE_IDENTIFIER")
        }
        guard let bundleID = try? BundleID(identifier) else { return skip("'\(identifier)' is not a bundle ID") }
        guard let teamText = settings.value("DEVELOPMENT_TEAM"), !teamText.isEmpty else {
            return skip("no DEVELOPMENT_TEAM (give --team ID)")
        }
        guard let teamID = try? TeamID(teamText) else { return skip("'\(teamText)' is not a team ID") }
        var entitlements: [String: PlistValue] = [:]
        var file: String? = nil
        if let path = settings.value("CODE_SIGN_ENTITLEMENTS"), !path.isEmpty {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : project.sourceRoot.appending(path: path)
            do {
                let data = try Self.read(url)
                entitlements = try Entitlements(propertyList: data).values.mapValues { Self.expand($0, with: settings) }
                file = path
            } catch {
                notes.append("target \(name): its entitlements file \(path) cannot be read (\(error)); imported without entitlements")
            }
        }
        for setting in settings.unresolved {
            notes.append("target \(name): $(\(setting)) is set nowhere in the project; it was expanded to nothing")
        }
        notes += settings.cut.map { "target \(name): \($0)" }
        return ImportedApp(
            target: target.name,
            bundleID: bundleID,
            team: teamID,
            platform: platform,
            entitlements: entitlements,
            entitlementsFile: file
        )
    }

    /// The platforms a target builds for: `SDKROOT`'s (`iphoneos`, `macosx`), or for `auto` (a
    /// multiplatform target) each of `SUPPORTED_PLATFORMS` the lab runs, iOS first. Simulators
    /// are the same build; watchOS, tvOS and visionOS have no device here.
    static func platforms(sdkRoot: String?, supported: String?) -> [Platform] {
        guard sdkRoot == "auto" || sdkRoot == nil || sdkRoot?.isEmpty == true else {
            return [sdkRoot?.hasPrefix("macosx") == true ? .macos : .ios]
        }
        let named = (supported ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" })
        var platforms: [Platform] = []
        if named.contains(where: { $0.hasPrefix("iphone") }) { platforms.append(.ios) }
        if named.contains(where: { $0.hasPrefix("macosx") }) { platforms.append(.macos) }
        return platforms.isEmpty ? [.ios] : platforms
    }

    /// What a target built for a device the lab does not have (`watchos`, `appletvos`, `xros`)
    /// becomes: an iPhone app, with its entitlements, said in a note; nil for iOS and macOS.
    static func standIn(sdkRoot: String?) -> String? {
        let devices = [("watch", "an Apple Watch"), ("appletv", "an Apple TV"), ("xr", "an Apple Vision Pro")]
        guard let sdkRoot, let device = devices.first(where: { sdkRoot.hasPrefix($0.0) })?.1 else { return nil }
        return "built for \(device) (SDKROOT \(sdkRoot)), which the lab does not have: imported as an iPhone app with its entitlements "
            + "(on a real \(device.dropFirst(device.hasPrefix("an ") ? 3 : 2)) its keychain is that device's own)"
    }

    /// At most a megabyte: an entitlements file is a few hundred bytes.
    static func read(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: 1 << 20 + 1) ?? Data()
        guard data.count <= 1 << 20 else { throw XcodeProjectError(.unreadable, "\(url.path) is larger than 1 MiB") }
        return data
    }

    /// Every string in `value` with its build settings expanded.
    static func expand(_ value: PlistValue, with settings: BuildSettings) -> PlistValue {
        switch value {
        case .string(let text): .string(settings.expand(text))
        case .array(let items): .array(items.map { expand($0, with: settings) })
        case .dictionary(let entries): .dictionary(entries.mapValues { expand($0, with: settings) })
        default: value
        }
    }
}
