import DeviceProtocol
import Foundation
public import PostgresInstance
import ServiceSupport

/// The scale demo's cloud beside a running lab (docs/scale.md): PostgreSQL shards of its own
/// (initdb and pg_ctl in temporary folders, as `nobody` when run as root) and cloudd replicas,
/// each over every shard. Each process goes into the lab's record, so `kclab down` stops what an
/// interrupted run left; ``stop()`` stops them all and removes the shards' folders.
public final class ScaleCloud: Sendable {
    public let shards: [PostgresInstance]
    /// Each shard's synchronous standby, when the cloud was started with standbys.
    public let standbys: [PostgresInstance]
    /// The replicas' URLs, in order.
    public let replicas: [String]
    let pids: [Int32]
    /// The groups holding each shard's server to its cores, when the cloud was started so.
    let limits: [CPULimit]

    private init(shards: [PostgresInstance], standbys: [PostgresInstance], replicas: [String], pids: [Int32], limits: [CPULimit]) {
        self.shards = shards
        self.standbys = standbys
        self.replicas = replicas
        self.pids = pids
        self.limits = limits
    }

    /// Starts `shardCount` PostgreSQL servers (with `standbys`, each with a streaming standby
    /// every commit waits for) and `replicaCount` cloudd replicas over them, beside the lab in
    /// `state`; with `shardCores`, each shard's server (and standby) is held to that many cores,
    /// as a database machine of its own (``CPULimit``); with `connections`, each replica opens up
    /// to that many to each shard (the store URL's `connections=`; else cloudd's default, 8);
    /// `progress` hears each step.
    public static func start(
        state: LabState,
        shards shardCount: Int,
        replicas replicaCount: Int,
        standbys withStandbys: Bool = false,
        shardCores: Double? = nil,
        connections: Int? = nil,
        progress: (String) -> Void
    ) async throws -> ScaleCloud {
        guard (1...8).contains(shardCount), (1...16).contains(replicaCount) else {
            throw LabFailure("the scale cloud takes 1 to 8 shards and 1 to 16 replicas")
        }
        guard var record = LabRecord.read(state) else { throw LabFailure("nothing was started in \(state.root.path); run kclab up") }
        var shards: [PostgresInstance] = []
        var standbys: [PostgresInstance] = []
        var pids: [Int32] = []
        var urls: [String] = []
        var limits: [CPULimit] = []
        // Each server goes into the lab's record as soon as it runs, and into its CPU group.
        func enter(_ server: PostgresInstance, as name: String) throws {
            let process = try LabRecord.Process(database: server, name: name, ownFolder: false)
            record.processes.append(process)
            try record.write(state)
            let pid = process.pid
            guard let shardCores else { return }
            let limit = try CPULimit.make("kclab-\(getpid())-\(name)", cores: shardCores)
            limits.append(limit)
            try limit.hold(tree: pid)
            progress("\(name) held to \(shardCores) cores (\(limit.folder.path))")
        }
        do {
            for index in 0..<shardCount {
                progress("starting PostgreSQL shard \(index)")
                let shard = try PostgresInstance(durable: true)
                shards.append(shard)
                try enter(shard, as: "postgres-shard-\(index)")
                guard withStandbys else { continue }
                progress("starting shard \(index)'s synchronous standby")
                let standby = try PostgresInstance(standbyOf: shard)
                standbys.append(standby)
                try enter(standby, as: "postgres-standby-\(index)")
                try shard.requireSynchronousStandby()
            }
            // A shard with a standby is named by both servers: cloudd keeps to the one taking writes.
            let stores = shards.indices.map { index in
                (standbys.indices.contains(index)
                    ? "postgres://kclab@127.0.0.1:\(shards[index].port),127.0.0.1:\(standbys[index].port)/postgres" : shards[index].url)
                    + (connections.map { "?connections=\($0)" } ?? "")
            }
            for index in 0..<replicaCount {
                progress(
                    "starting cloudd replica \(index) over \(shardCount) shard\(shardCount == 1 ? "" : "s")"
                        + (connections.map { ", \($0) connection\($0 == 1 ? "" : "s") to each" } ?? "")
                )
                let folder = state.root.appending(path: "scale/replica-\(index)")
                let endpoint = folder.appending(path: "endpoint.json")
                try? FileManager.default.removeItem(at: endpoint)
                let log = state.log("cloudd-replica-\(index)")
                let arguments =
                    ["--world", state.builtWorld.path, "--state", folder.path, "--port", "0", "--metrics-port", "off"]
                    + stores.flatMap { ["--store", $0] }
                let pid = try LabProcesses.start("cloudd", arguments, log: log)
                pids.append(pid)
                record.processes.append(
                    .init(
                        name: "cloudd-replica-\(index)",
                        pid: pid,
                        program: LabProcesses.binaries.appending(path: "cloudd").path,
                        arguments: arguments
                    )
                )
                try record.write(state)
                try await LabProcesses.waitFor(endpoint, process: pid, name: "cloudd replica \(index)", log: log)
                guard let url = SiteRecord.endpointURL(endpoint) else { throw LabFailure("cloudd replica \(index) wrote no endpoint") }
                urls.append(url)
            }
        } catch {
            await Self.stop(pids: pids, shards: shards + standbys, limits: limits, state: state)
            throw error
        }
        return ScaleCloud(shards: shards, standbys: standbys, replicas: urls, pids: pids, limits: limits)
    }

    /// Stops the replicas, then the shards, and takes them out of the lab's record.
    public func stop(state: LabState) async {
        await Self.stop(pids: pids, shards: shards + standbys, limits: limits, state: state)
    }

    private static func stop(pids: [Int32], shards: [PostgresInstance], limits: [CPULimit], state: LabState) async {
        for pid in pids { await LabProcesses.stop(pid) }
        for shard in shards { shard.stop() }
        for limit in limits { limit.remove() }
        if var record = LabRecord.read(state) {
            record.processes.removeAll { isPart($0.name) }
            try? record.write(state)
        }
    }
}

extension ScaleCloud {
    /// Whether a process of the lab's record named `name` is part of a fleet's own cloud (a
    /// replica, a shard or a standby), which goes with the fleet.
    static func isPart(_ name: String) -> Bool {
        ["cloudd-replica-", "postgres-shard-", "postgres-standby-"].contains(where: name.hasPrefix)
    }

    /// What the cloud holds in memory now: its replicas and every process of its PostgreSQL
    /// servers (standbys included), in bytes.
    public var residentBytes: Int {
        ProcessMemory.tree(pids + (shards + standbys).compactMap(\.serverPID))
    }
}
