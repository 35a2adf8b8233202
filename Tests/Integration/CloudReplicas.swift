import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// cloudd processes of a test's own beside its lab's, over `stores` (`--store` each, in order),
/// each with a state folder of its own; ``stop()`` ends them.
struct CloudReplicas {
    let pids: [Int32]
    let urls: [String]
    let logs: [URL]
    /// Each replica's endpoint file (its metrics URL, when it serves metrics).
    let endpoints: [URL]

    /// Starts `count` replicas; with `metrics`, each serves its metrics on a free port.
    static func start(_ lab: RunningLab, count: Int, stores: [String], metrics: Bool = false) async throws -> CloudReplicas {
        var pids: [Int32] = []
        var urls: [String] = []
        var logs: [URL] = []
        var endpoints: [URL] = []
        do {
            for index in 0..<count {
                let state = lab.state.root.appending(path: "replica-\(index)")
                let endpoint = state.appending(path: "endpoint.json")
                let log = lab.state.root.appending(path: "replica-\(index).log")
                let arguments =
                    ["--world", lab.state.builtWorld.path, "--state", state.path, "--port", "0", "--metrics-port", metrics ? "0" : "off"]
                    + stores.flatMap { ["--store", $0] }
                let pid = try LabProcesses.start("cloudd", arguments, log: log)
                pids.append(pid)
                logs.append(log)
                try await LabProcesses.waitFor(endpoint, process: pid, name: "cloudd", log: log)
                guard let url = SiteRecord.endpointURL(endpoint) else { throw LabFailure("cloudd wrote no endpoint in \(state.path)") }
                urls.append(url)
                endpoints.append(endpoint)
            }
        } catch {
            for pid in pids { await LabProcesses.stop(pid) }
            throw error
        }
        return CloudReplicas(pids: pids, urls: urls, logs: logs, endpoints: endpoints)
    }

    /// Stops every replica (SIGTERM: a graceful shutdown); the lines of their logs that say one
    /// crashed instead (a failed assertion of a debug build, a fatal error, a backtrace).
    @discardableResult
    func stop() async -> [String] {
        for pid in pids { await LabProcesses.stop(pid) }
        return crashLines(in: logs)
    }

    /// Runs `body` with replicas started for it, and stops them whatever it does; a replica that
    /// did not stop cleanly fails the test.
    static func with(
        _ lab: RunningLab,
        count: Int,
        stores: [String],
        metrics: Bool = false,
        _ body: (CloudReplicas) async throws -> Void
    ) async throws {
        let replicas = try await start(lab, count: count, stores: stores, metrics: metrics)
        do {
            try await body(replicas)
        } catch {
            await replicas.stop()
            throw error
        }
        let crashes = await replicas.stop()
        #expect(crashes.isEmpty, "a replica crashed while stopping: \(crashes)")
    }
}
