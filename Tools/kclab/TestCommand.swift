import AppIdentity
import ArgumentParser
import Decisions
import DeviceProtocol
import Foundation
import LabControl
import ServiceSupport
import WorldFile
import WorldImport

/// `kclab test [--entitlements F | --access-group G…] [--device D…] -- COMMAND…`
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a command (your package's tests) as an app on a lab of its own, then explain its keychain refusals.",
        discussion: """
            Brings up a lab in a new temporary folder: the world given with --world, or a test host: \
            one development-signed app (--bundle-id, --team) whose entitlements come from \
            --entitlements FILE or --access-group G… (default: its own group only), installed on an \
            iPhone (iOS 17.4) and a Mac (macOS 14.5, running its iOS build), neither with a passcode. \
            Runs COMMAND as that app on each --device (default: the iPhone), in this folder, which it \
            may write (`kclab test -- swift test`), as `kclab app exec` does; a test bundle (NAME.xctest, \
            or the one swift test runs) finds the host's Info.plist beside it for the run, so \
            Bundle.main.bundleIdentifier is the host's. Then prints every call of the run that keychaind \
            answered with another status than errSecSuccess (-34018, -25291, -50, -25300, …), and why, \
            as its audit recorded it; brings the lab down whatever happened, and exits with COMMAND's \
            status (the first that failed). \
            docs/testing-your-package.md shows a package and a CI workflow.
            """
    )

    @Option(help: "A world file of your own (default: a test host made from the options below).")
    var world: String?

    @Option(help: "The app to run as: its bundle ID (default com.example.TestHost; with --world, the world's only app).")
    var bundleID: String?

    @Option(help: "The test host's development team (default TESTHOST01).")
    var team = "TESTHOST01"

    @Option(help: "The test host's entitlements: an .entitlements file ($(AppIdentifierPrefix) expands as Xcode does).")
    var entitlements: String?

    @Option(help: "A keychain access group the test host holds (repeatable, in order; TEAM. is added when missing).")
    var accessGroup: [String] = []

    @Option(help: "A device to run on (repeatable): iphone, mac, or a device of --world (default: the first).")
    var device: [String] = []

    @Option(
        name: .customLong("read"),
        help: "A folder the command may read besides this one, such as a path dependency's (repeatable; never the lab's state)."
    )
    var readable: [String] = []

    @Option(
        help: ArgumentHelp(
            "When the run fails, copy the lab's logs (each daemon's and device's) into this folder (default under CI=true: kclab-logs).",
            valueName: "dir"
        )
    )
    var keepLogs: String?

    @Option(help: "Keep the lab here instead of a temporary folder, and leave it running (kclab down --state DIR ends it).")
    var state: String?

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command to run after --, for example: kclab test -- swift test") }
        if world != nil, entitlements != nil || !accessGroup.isEmpty {
            throw ValidationError("--entitlements and --access-group make a test host; a --world declares its apps' own")
        }
        if entitlements != nil, !accessGroup.isEmpty { throw ValidationError("give --entitlements or --access-group, not both") }
    }

    func run() async throws {
        let folder: URL
        if let state {
            folder = URL(fileURLWithPath: state).standardizedFileURL
        } else {
            folder = FileManager.default.temporaryDirectory.appending(path: "kclab-testlab-\(UUID().uuidString.prefix(8))")
        }
        let lab = LabState(root: folder)
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let refusal = ExecFolder.refusal(here, protecting: [lab.root]) {
            throw fail("\(refusal); give --state a folder outside this one", code: 2)
        }
        let status: Int32
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let (worldFile, bundle) = try makeWorld(in: folder)
            status = try await run(worldFile: worldFile, bundle: bundle, lab: lab)
        } catch let exit as ExitCode {
            await finish(lab, folder: folder, failed: true)
            throw exit
        } catch {
            await finish(lab, folder: folder, failed: true)
            throw fail("\(error)")
        }
        await finish(lab, folder: folder, failed: status != 0)
        if status != 0 { throw ExitCode(status) }
    }

    /// Where a failed run's logs go: `--keep-logs`, else `kclab-logs` when `CI` is `true` (GitHub
    /// Actions and most CI services set it), else nowhere.
    var logsFolder: URL? {
        let given = keepLogs ?? (ProcessInfo.processInfo.environment["CI"] == "true" ? "kclab-logs" : nil)
        return given.map { URL(fileURLWithPath: $0).standardizedFileURL }
    }

    /// The world file to bring up and the app to run as.
    private func makeWorld(in folder: URL) throws -> (URL, BundleID) {
        if let world {
            let file = URL(fileURLWithPath: world).standardizedFileURL
            let apps = try World.load(contentsOf: file).apps
            if let bundleID { return (file, try BundleID(bundleID)) }
            guard apps.count == 1, let only = apps.first else {
                throw LabFailure("the world has \(apps.count) apps: name the one to run as with --bundle-id")
            }
            return (file, only.bundleID)
        }
        let bundle = try BundleID(bundleID ?? "com.example.TestHost")
        let teamID = try TeamID(team)
        var host: ProjectImport
        if let entitlements {
            host = try ProjectImport(entitlements: URL(fileURLWithPath: entitlements), bundleID: bundle, team: teamID)
        } else {
            let groups = accessGroup.map { Self.prefixed($0, team: teamID) }
            let values: [String: PlistValue] = groups.isEmpty ? [:] : ["keychain-access-groups": .array(groups.map(PlistValue.string))]
            host = ProjectImport(entitlements: values, bundleID: bundle, team: teamID)
        }
        host.macRunsIOSApps = true
        let file = folder.appending(path: "test-host.yaml")
        try Data(try host.worldYAML().utf8).write(to: file, options: .atomic)
        return (file, bundle)
    }

    /// `group` as the test host's entitlement lists it: with the team prefix unless it has one, is
    /// an app group (`group.…`) or leaves it to `$(AppIdentifierPrefix)`.
    static func prefixed(_ group: String, team: TeamID) -> String {
        if group.hasPrefix("\(team).") || group.hasPrefix("group.") || group.hasPrefix("$(") { return group }
        return "\(team).\(group)"
    }

    /// Brings the lab up, runs the command on each device while reading keychaind's audit of the
    /// run, explains the refusals; the first failing status, else 0.
    private func run(worldFile: URL, bundle: BundleID, lab: LabState) async throws -> Int32 {
        let here = FileManager.default.currentDirectoryPath
        let program = AppCommand.resolvedExec(command)
        // The report's first lines: the app and its devices, before the lab's progress.
        let declared = try World.load(contentsOf: worldFile)
        let testBundle = TestHostInfo.bundleFolder(of: program, in: URL(fileURLWithPath: here))
        let running = device.isEmpty ? declared.devices.prefix(1).map(\.id) : device
        let header = TestHeader.lines(world: declared, bundleID: bundle, running: running, testHost: world == nil, testBundle: testBundle != nil)
        for line in header { warn(line) }
        let sandbox = Doctor.sandbox
        warn("kclab test: sandbox: \(sandbox.subject) \(sandbox.detail)" + (sandbox.fix.map { " (for more: \($0))" } ?? ""))
        let summary = try await Lab.up(world: worldFile, state: lab) { warn("… \($0)") }
        let devices =
            device.isEmpty
            ? Array(summary.devices.prefix(1))
            : try device.map { id in
                guard let found = summary.devices.first(where: { $0.id == id }) else {
                    throw LabFailure("no device \(id) in this lab; it has \(summary.devices.map(\.id).joined(separator: ", "))")
                }
                return found
            }
        let folders = readable.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let options = try LabOptions.parse(["--state", lab.root.path])
        var failed: Int32 = 0
        for device in devices {
            guard let app = device.installed.first(where: { $0.bundleID == bundle.rawValue }) else {
                let refused = device.refused[bundle.rawValue].map { ": refused at install, \($0.joined(separator: "; "))" } ?? ": not installed"
                throw LabFailure("\(bundle) on \(device.id)\(refused)")
            }
            // As under an Xcode test host, the test bundle's Bundle.main is the host's, as this device installed it.
            let hostInfo = testBundle.flatMap { placeHostInfo(in: $0, bundle: bundle, deviceID: device.id, declared: declared, lab: lab) }
            defer { hostInfo?.remove() }
            let (status, audit) = try await options.withAdministrator { client in
                try await Self.reading(AuditSource(client: client, udid: device.udid), app: app.appIDText) {
                    try Self.exec(program, as: app, on: device, in: here, readable: folders, lab: lab)
                }
            }
            if status != 0, failed == 0 { failed = status }
            for line in TestReport.lines(audit, device: device.id, status: status) { warn(line) }
        }
        return failed
    }

    /// Runs `program` as `app` on `device`, each of its runs, printing its output as it comes:
    /// the first failing status, else 0. Blocks on the device's socket while the program runs.
    private static func exec(
        _ program: [String],
        as app: AppInfo,
        on device: DeviceStatus,
        in here: String,
        readable: [String],
        lab: LabState
    ) throws -> Int32 {
        var status: Int32 = 0
        for (arguments, addedSwiftTesting) in runs(program) {
            warn(
                "… running \(([program[0]] + arguments).joined(separator: " ")) as \(app.appIDText) on \(device.id) (\(device.platform) \(device.osVersion))"
            )
            let request = DeviceRequest(
                .exec(program: program[0], arguments: arguments, input: nil, workingDirectory: here, readable: readable),
                app: app.bundleID
            )
            // The tests' output as they print it: a long suite shows its progress.
            let response = try DeviceClient(state: lab, device: device.id).send(request) { FileHandle.standardOutput.write(Data($0.utf8)) }
            if let error = response.error { throw LabFailure("\(device.id): \(error)") }
            if let output = response.output { FileHandle.standardOutput.write(Data(output.utf8)) }
            var ended = response.exitCode ?? 1
            if addedSwiftTesting, ended == noTestsFound {
                // As swift test: a bundle of XCTest cases alone is not a failure.
                warn("… the bundle has no Swift Testing tests")
                ended = 0
            }
            if ended != 0, status == 0 { status = ended }
        }
        return status
    }

    /// Puts the host's Info.plist, as device `deviceID` installed it, into `folder`, where the
    /// test bundle runs from, and says so; nil when it was not placed (the reason is printed).
    private func placeHostInfo(in folder: URL, bundle: BundleID, deviceID: String, declared: World, lab: LabState) -> TestHostInfo? {
        let macBuild = declared.device(deviceID).flatMap { declared.app(bundle, on: $0.platform) }?.isMacBuild ?? false
        let source = TestHostInfo.hostInfoFile(bundle, macBuild: macBuild, builtWorld: lab.builtWorld)
        guard let info = try? Data(contentsOf: source) else {
            warn("… Bundle.main.bundleIdentifier stays nil: \(source.path) cannot be read")
            return nil
        }
        switch TestHostInfo.place(info, in: folder) {
        case .placed(let placed):
            warn("… Bundle.main of the test bundle: \(placed.file.path), the host's Info.plist, until the run ends")
            return placed
        case .skipped(let reason):
            warn("… Bundle.main.bundleIdentifier is not the host's: \(reason)")
            return nil
        }
    }

    /// The arguments of each run of `command`: once, or twice for a test bundle (`NAME.xctest`)
    /// that names no testing library, which on Linux runs its XCTest cases alone: then its Swift
    /// Testing tests too, as `swift test` runs both (that second run is marked).
    static func runs(_ command: [String]) -> [(arguments: [String], addedSwiftTesting: Bool)] {
        let arguments = Array(command.dropFirst())
        guard let program = command.first, program.hasSuffix(".xctest"), !arguments.contains("--testing-library") else {
            return [(arguments, false)]
        }
        return [(arguments, false), (arguments + ["--testing-library", "swift-testing"], true)]
    }

    /// Swift Testing's exit status when it finds no test (EX_UNAVAILABLE), which `swift test`
    /// does not count as a failure when it runs both libraries.
    static let noTestsFound: Int32 = 69

    /// Ends the lab, keeps its logs when the run failed and a folder was given for them, and
    /// removes the temporary folder unless --state named one to keep.
    private func finish(_ lab: LabState, folder: URL, failed: Bool) async {
        guard state == nil else {
            warn("the lab stays up in \(lab.root.path): kclab down --state \(lab.root.path)")
            return
        }
        _ = await Lab.down(state: lab)
        if failed, let logs = logsFolder {
            do {
                try TestLogs.keep(lab.logs, in: logs)
                warn("kclab test: the run failed; the lab's logs are in \(logs.path)")
            } catch {
                warn("kclab test: the lab's logs could not be kept in \(logs.path): \(error.localizedDescription)")
            }
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
