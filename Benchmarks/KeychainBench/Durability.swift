import AppIdentity
import Foundation
import GRDB
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabControl
import NIOHTTP1
import ServiceSupport
import Synchronization

/// `keychain-bench --durability ROUNDS` (`make durability`): apps add items through the call
/// channel while keychaind is killed with SIGKILL at random moments and started again; at the end
/// every add keychaind acknowledged must be there, and SQLite's integrity check must pass.
struct Durability {
    let lab: LabState
    let rounds: Int
    let emit: (String) -> Void

    /// What the writers saw.
    struct Tally {
        var acknowledged: Set<String> = []
        var failed = 0
    }

    /// The writers' tally and the signal to stop, shared with their tasks.
    final class Shared: Sendable {
        let tally = Mutex(Tally())
        let stop = Atomic<Bool>(false)
    }

    func run() async throws {
        var endpoint = try Endpoint.read(from: lab.keychaindEndpoint)
        guard let calls = endpoint.calls.flatMap(ServiceAddress.hostAndPort), let port = URL(string: endpoint.url)?.port else {
            throw BenchFailure("keychaind announced no call channel and port: \(endpoint.url) \(endpoint.calls ?? "none")")
        }
        let direct = try DirectClient(
            base: endpoint.url,
            calls: calls,
            tls: try TLSIdentities.deviceClient(world: lab.builtWorld, device: "bench-phone")
        )
        let app = try await register(direct)
        let shared = Shared()
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<16 {
                group.addTask {
                    var index = 0
                    while !shared.stop.load(ordering: .relaxed) {
                        index += 1
                        // KeychainBench.item names the account PREFIX-INDEX.
                        let account = "durable-\(writer)-\(index)"
                        let status = try? await direct.call(.add, app: app, KeychainBench.item(index, account: "durable-\(writer)"))
                        if status == 0 {
                            shared.tally.withLock { _ = $0.acknowledged.insert(account) }
                        } else {
                            // keychaind is down or forgot the device: not acknowledged, try the next.
                            shared.tally.withLock { $0.failed += 1 }
                            try? await Task.sleep(for: .milliseconds(20))
                        }
                    }
                }
            }
            for round in 1...rounds {
                try await Task.sleep(for: .milliseconds(Int64.random(in: 300...1500)))
                kill(endpoint.pid, SIGKILL)
                let before = shared.tally.withLock { $0.acknowledged.count }
                endpoint = try await restart(port: port, calls: calls.port)
                _ = try await register(direct)
                emit("round \(round): keychaind killed after \(before) acknowledged adds, started again")
            }
            try await Task.sleep(for: .milliseconds(500))
            shared.stop.store(true, ordering: .relaxed)
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - started
        let (acknowledged, failed) = shared.tally.withLock { ($0.acknowledged, $0.failed) }
        let present = try await accounts(direct, app: app)
        let lost = acknowledged.subtracting(present)
        let integrity = try integrityCheck()
        try await direct.shutdown()
        emit("")
        emit("| kills | acknowledged adds | refused while down | lost | integrity_check | seconds |")
        emit("| --- | --- | --- | --- | --- | --- |")
        emit("| \(rounds) | \(acknowledged.count) | \(failed) | \(lost.count) | \(integrity) | \(elapsed.components.seconds) |")
        guard lost.isEmpty, integrity == "ok" else {
            throw BenchFailure("\(lost.count) acknowledged items lost (\(lost.sorted().prefix(5))…), integrity_check: \(integrity)")
        }
    }

    /// Reports the device and registers the first bench app again, as a device does when
    /// keychaind has forgotten it; gives the app's reference.
    private func register(_ direct: DirectClient) async throws -> String {
        let report = KeychainAPI.DeviceReport(
            platform: .ios,
            osVersion: OSVersion(17, 4),
            iCloudAccount: nil,
            hasPasscode: false,
            isLocked: false,
            unlockedSinceBoot: true
        )
        _ = try await direct.send(.PUT, "/v1/device", report, as: [String: String].self)
        let bundle = lab.builtWorld.appending(path: "apps/\(KeychainBench.apps[0]).app")
        let registration = KeychainAPI.AppRegistration(
            profile: try Data(contentsOf: bundle.appending(path: "embedded.mobileprovision")),
            codeSignature: try Data(contentsOf: bundle.appending(path: "_CodeSignature/CodeSignature"))
        )
        return try await direct.send(.POST, "/v1/apps", registration, as: KeychainAPI.RegisteredApp.self).app
    }

    /// Starts keychaind again on the same ports, and records its new PID so `Lab.down` stops it.
    private func restart(port: Int, calls: Int) async throws -> Endpoint {
        try? FileManager.default.removeItem(at: lab.keychaindEndpoint)
        let pid = try LabProcesses.start(
            "keychaind",
            [
                "--world", lab.builtWorld.path, "--state", lab.keychaind.path, "--host", "127.0.0.1", "--port", "\(port)", "--calls-port",
                "\(calls)", "--metrics-port", "0",
            ],
            log: lab.log("keychaind")
        )
        if var record = LabRecord.read(lab) {
            record.processes = record.processes.map { $0.name == "keychaind" ? .init(name: "keychaind", pid: pid) : $0 }
            try record.write(lab)
        }
        try await LabProcesses.waitFor(lab.keychaindEndpoint, process: pid, name: "keychaind", log: lab.log("keychaind"))
        return try Endpoint.read(from: lab.keychaindEndpoint)
    }

    /// Every account of the app's items, read back through keychaind.
    private func accounts(_ direct: DirectClient, app: String) async throws -> Set<String> {
        let answer = try await direct.answer(
            .copyMatching,
            app: app,
            ["class": .string("genp"), "svce": .string("bench"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]
        )
        guard case .array(let items)? = answer.result else { throw BenchFailure("reading the items back: \(answer.name) \(answer.reason ?? "")") }
        return Set(
            items.compactMap { item in
                if case .dictionary(let attributes) = item, case .string(let account)? = attributes["acct"] { return account }
                return nil
            }
        )
    }

    /// SQLite's own check of the keychain database, read-only.
    private func integrityCheck() throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: lab.keychaind.appending(path: "keychain.sqlite").path, configuration: configuration)
        defer { try? database.close() }
        return try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }
}
