import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabControl
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceSupport

/// keychain-bench: keychaind's speed through the full path (app → device → keychaind) and directly,
/// and gnome-keyring's Secret Service for comparison. `make bench` runs it in a release build.
@main
struct KeychainBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keychain-bench", abstract: "Measure keychaind and compare with gnome-keyring.")

    @Option(parsing: .upToNextOption, help: "Item counts to measure at.")
    var items: [Int] = [1_000, 100_000]

    @Option(help: "Seconds per measurement.")
    var duration = 3.0

    @Option(help: "The state folder.")
    var state = ".bench"

    @Flag(help: "Skip gnome-keyring.")
    var skipPeer = false

    @Flag(help: "Measure only the engine and store, in this process.")
    var engineOnly = false

    @Option(help: "With --engine-only: sleep this many microseconds before each engine call, as a daemon's thread sleeps between calls.")
    var enginePause = 0

    @Option(
        help: ArgumentHelp(
            "Run only the measurements whose label contains this text.",
            discussion:
                "A label is a measurement's name and its clients in parentheses, e.g. \"direct CopyMatching (1)\"; useful with a profiler attached."
        )
    )
    var only: String?

    @Option(help: "Instead of measuring: kill keychaind this many times while apps add items, then check that no acknowledged item is lost.")
    var durability: Int?

    static let apps = (0..<16).map { "bench.app\($0)" }

    func run() async throws {
        // As keychaind and devices do: tasks run on NIO's event loops, next to their connections.
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let folder = URL(fileURLWithPath: state)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if engineOnly {
            emit("| measurement | clients | median ms | p99 ms | ops/s |")
            emit("| --- | --- | --- | --- | --- |")
            for count in items.sorted() {
                for measurement in try await EngineBench.run(
                    items: count,
                    duration: duration,
                    folder: folder.appending(path: "\(count)"),
                    pause: enginePause,
                    wanted: { wanted($0, clients: 1) }
                ) {
                    emit(measurement.row)
                }
            }
            return
        }
        let world = folder.appending(path: "bench.yaml")
        try Data(Self.world.utf8).write(to: world)
        let lab = LabState(root: folder.appending(path: "lab"))
        _ = try await Lab.up(world: world, state: lab)
        do {
            if let durability {
                try await Durability(lab: lab, rounds: durability, emit: emit).run()
            } else {
                let direct = try await report(lab)
                try await direct.shutdown()
            }
        } catch {
            _ = await Lab.down(state: lab)
            throw error
        }
        _ = await Lab.down(state: lab)
    }

    /// Measures; gives back the direct client, still open, for the caller to shut down.
    private func report(_ lab: LabState) async throws -> DirectClient {
        let endpoint = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.keychaindEndpoint)) as? [String: Any]
        let keychaindPID = Int32(endpoint?["pid"] as? Int ?? 0)
        let callsAddress = (endpoint?["calls"] as? String ?? "").split(separator: ":")
        guard callsAddress.count == 2, let callsPort = Int(callsAddress[1]) else { throw BenchFailure("keychaind announced no call channel") }
        let direct = try DirectClient(
            base: endpoint?["url"] as? String ?? "",
            calls: (String(callsAddress[0]), callsPort),
            tls: try TLSIdentities.deviceClient(world: lab.builtWorld, device: "bench-phone")
        )
        var references: [String] = []
        for app in Self.apps {
            let bundle = lab.builtWorld.appending(path: "apps/\(app).app")
            let registration = KeychainAPI.AppRegistration(
                profile: try Data(contentsOf: bundle.appending(path: "embedded.mobileprovision")),
                codeSignature: try Data(contentsOf: bundle.appending(path: "_CodeSignature/CodeSignature"))
            )
            references.append(try await direct.send(.POST, "/v1/apps", registration, as: KeychainAPI.RegisteredApp.self).app)
        }
        let apps = references
        let control = lab.controlSocket("bench-phone").path
        let sockets = try (0..<16).map { _ in try LineSocket(path: control) }
        let fullPath = SocketPool(sockets)

        emit("| measurement | clients | median ms | p99 ms | ops/s |")
        emit("| --- | --- | --- | --- | --- |")
        // Items user-0 ..< user-N are the ones looked up; the measured adds use other accounts.
        var filled = 0
        var added = 0
        for target in items.sorted() {
            let missing = target - filled - added
            if missing > 0 {
                let base = filled
                try await withThrowingDiscardingTaskGroup { group in
                    for client in 0..<16 {
                        group.addTask {
                            for index in stride(from: client, to: missing, by: 16) {
                                _ = try await direct.call(.add, app: apps[0], Self.item(base + index))
                            }
                        }
                    }
                }
                filled += missing
            }
            emit("| **\(target) items** | | | | |")
            if wanted("direct GET /v1/health (transport only)", clients: 1) {
                emit(
                    try await measure("direct GET /v1/health (transport only)", clients: 1, duration: duration) { _, _ in
                        _ = try direct.get("/v1/health")
                    }.row
                )
            }
            if wanted("direct call channel round trip (refused at once)", clients: 1) {
                emit(
                    try await measureTasks("direct call channel round trip (refused at once)", clients: 1, duration: duration) { _, _ in
                        try await direct.refusedCall()
                    }.row
                )
            }
            let count = filled
            for clients in [1, 16] {
                if wanted("direct CopyMatching", clients: clients) {
                    emit(
                        try await measureTasks("direct CopyMatching", clients: clients, duration: duration) { client, round in
                            let status = try await direct.call(.copyMatching, app: apps[client], Self.lookup((round * 7919 + client) % count))
                            guard status == 0 else { throw BenchFailure("CopyMatching returned \(status)") }
                        }.row
                    )
                }
                guard wanted("full-path CopyMatching", clients: clients) else { continue }
                emit(
                    try await measure("full-path CopyMatching", clients: clients, duration: duration) { client, round in
                        let answer = try fullPath.socket(client).exchange(
                            DeviceRequest(.secItem(.copyMatching, query: Self.lookup((round * 7919 + client) % count)), app: Self.apps[client]),
                            as: DeviceResponse.self
                        )
                        guard answer.status == 0 else { throw BenchFailure("CopyMatching returned \(answer.status ?? 0) \(answer.error ?? "")") }
                    }.row
                )
            }
            for clients in [1, 16] where wanted("direct Add (durable)", clients: clients) {
                let namespace = "added-\(target)-\(clients)"
                let measured = try await measureTasks("direct Add (durable)", clients: clients, duration: duration) { client, round in
                    let status = try await direct.call(.add, app: apps[client], Self.item(round * 16 + client, account: namespace))
                    guard status == 0 else { throw BenchFailure("Add returned \(status)") }
                }
                emit(measured.row)
                added += measured.latencies.count
            }
            emit(String(format: "| keychaind resident memory | | | | %.1f MiB |", residentMiB(keychaindPID)))
        }
        if !skipPeer {
            try peer()
        }
        return direct
    }

    /// Whether `--only` lets the measurement `name` with `clients` clients run.
    private func wanted(_ name: String, clients: Int) -> Bool {
        guard let only else { return true }
        return "\(name) (\(clients))".contains(only)
    }

    private func peer() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(
            path: "peer/run-gnome-keyring.sh"
        )
        let process = Process()
        process.executableURL = script
        process.arguments = ["1000", "2000"]
        let file = FileManager.default.temporaryDirectory.appending(path: "kclab-peer-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        process.standardOutput = try FileHandle(forWritingTo: file)
        try process.run()
        Self.waitForExit(process)
        let output = (try? Data(contentsOf: file)) ?? Data()
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last,
            let figures = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            emit("gnome-keyring: no result")
            return
        }
        emit("")
        emit("| gnome-keyring (libsecret, 1 client, 1000 items) | value |")
        emit("| --- | --- |")
        for key in ["lookup_per_second", "lookup_median_ms", "lookup_p99_ms", "store_per_second", "store_median_ms"] {
            emit(String(format: "| %@ | %.3f |", key, figures[key] as? Double ?? .nan))
        }
    }

    /// Waits for `process` by its PID. (Foundation's `waitUntilExit` was seen to miss the exit of the
    /// peer's script here, leaving it a zombie and the benchmark waiting for ever.)
    static func waitForExit(_ process: Process) {
        let pid = process.processIdentifier
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result == -1 && errno == ECHILD) || !process.isRunning { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    static func item(_ index: Int, account: String = "user") -> [String: SecValue] {
        ["class": .string("genp"), "svce": .string("bench"), "acct": .string("\(account)-\(index)"), "v_Data": .data(Data("secret-\(index)".utf8))]
    }

    static func lookup(_ index: Int) -> [String: SecValue] {
        ["class": .string("genp"), "svce": .string("bench"), "acct": .string("user-\(index)"), "r_Data": .bool(true)]
    }

    static let world = """
        name: bench
        teams: [{id: BENCH00001, name: Bench}]
        apps:
        \((0..<16).map { "  - {bundleID: bench.app\($0), team: BENCH00001, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)bench]}}" }.joined(separator: "\n"))
        devices:
          - {id: bench-phone, osVersion: "17.4", apps: [\((0..<16).map { "bench.app\($0)" }.joined(separator: ", "))]}
        """
}

/// One blocking socket per client thread.
final class SocketPool: @unchecked Sendable {
    // Each socket is used by one thread only: client i uses sockets[i].
    private let sockets: [LineSocket]
    init(_ sockets: [LineSocket]) { self.sockets = sockets }
    func socket(_ client: Int) -> LineSocket { sockets[client] }
}
