import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A running lab (keychaind and devices, real processes) for one test, always stopped afterwards.
struct RunningLab {
    let state: LabState
    let summary: Lab.Summary

    /// A SecItem call made as `app` on `device` through the device's control socket.
    func call(
        _ call: SecItemCall,
        on device: String,
        as app: String,
        _ query: [String: SecValue],
        changes: [String: SecValue]? = nil
    ) throws
        -> DeviceResponse
    {
        try DeviceClient(state: state, device: device).send(DeviceRequest(.secItem(call, query: query, attributesToUpdate: changes), app: app))
    }

    /// The status of a call, for short assertions.
    func status(_ secItem: SecItemCall, on device: String, as app: String, _ query: [String: SecValue]) throws -> Int32? {
        try call(secItem, on: device, as: app, query).status
    }

    /// Runs `kclab` against this lab.
    func kclab(_ arguments: [String]) throws -> ProgramResult {
        try run(WorldTestSupport.kclab, arguments + ["--state", state.root.path])
    }

    /// Runs the app `app` on `device` with `arguments` (`kclab app run … -- ARGS`).
    func runApp(_ app: String, on device: String, _ arguments: [String]) throws -> ProgramResult {
        try run(WorldTestSupport.kclab, ["app", "run", "--state", state.root.path, "--device", device, "--app", app, "--"] + arguments)
    }

    /// Waits until the online devices of `account` (every account: nil) have converged with
    /// cloudd (`kclab sync wait`); throws with what is still unsettled.
    func syncWait(account: String? = nil) throws {
        let result = try kclab(["sync", "wait", "--timeout", "30"] + (account.map { ["--account", $0] } ?? []))
        guard result.status == 0 else { throw LabFailure("kclab sync wait: \(result.stderr)") }
    }

    /// Takes `device`'s iCloud Keychain link down or up, or asks its state.
    @discardableResult
    func sync(_ control: SyncControl, on device: String) throws -> SyncStatus {
        let response = try DeviceClient(state: state, device: device).send(DeviceRequest(.sync(control)))
        if let error = response.error { throw LabFailure(error) }
        guard let status = response.sync else { throw LabFailure("\(device) gave no sync state") }
        return status
    }

    func device(_ id: String) -> DeviceStatus? {
        summary.devices.first { $0.id == id }
    }
}

/// Starts the world `yaml` in a fresh folder (cloudd as `clouddReplicas` replicas, on
/// `clouddShards` PostgreSQL servers of the lab's own when given), runs `body`, and stops every
/// process it started.
func withLab<T>(
    _ yaml: String,
    clouddReplicas: Int = 1,
    clouddShards: Int? = nil,
    _ body: (RunningLab) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { folder in
        let file = folder.appending(path: "world.yaml")
        try Data(yaml.utf8).write(to: file)
        let state = LabState(root: folder.appending(path: "state"))
        do {
            let summary = try await Lab.up(world: file, state: state, clouddReplicas: clouddReplicas, clouddShards: clouddShards)
            let result = try await body(RunningLab(state: state, summary: summary))
            _ = await Lab.down(state: state)
            // Every process stopped cleanly: none crashed, now or while the test ran.
            let logs = (try? FileManager.default.contentsOfDirectory(at: state.logs, includingPropertiesForKeys: nil)) ?? []
            let crashes = crashLines(in: logs)
            #expect(crashes.isEmpty, "a process of the lab crashed: \(crashes)")
            return result
        } catch {
            // Say what the processes logged: a failure here is usually explained there.
            let logs = (try? FileManager.default.contentsOfDirectory(atPath: state.logs.path)) ?? []
            let tails = logs.sorted().map { "--- \($0)\n" + LabProcesses.tail(state.logs.appending(path: $0), lines: 15) }
            _ = await Lab.down(state: state)
            throw LabFailure("\(error)\n" + tails.joined(separator: "\n"))
        }
    }
}

/// The lines of `logs` that say their process crashed: a failed assertion (debug builds), a
/// fatal error, or the Swift runtime's backtrace.
func crashLines(in logs: [URL]) -> [String] {
    logs.flatMap { log in
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { line in
            ["Assertion failed", "Fatal error", "*** Signal "].contains { line.contains($0) }
        }.map { "\(log.lastPathComponent): \($0)" }
    }
}

extension SecValue {
    var dictionaryEntries: [String: SecValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }
}

extension RunningLab {
    /// The lines of a daemon's Prometheus metrics, scraped at the URL its endpoint file names.
    func metrics(_ endpointFile: URL) throws -> (url: String, lines: [String]) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: endpointFile)) as? [String: Any]
        guard let url = object?["metrics"] as? String else { return ("", []) }
        let scrape = try runTool("curl", ["-s", "--max-time", "10", url])
        return (url, scrape.stdout.split(separator: "\n").map(String.init))
    }
}
