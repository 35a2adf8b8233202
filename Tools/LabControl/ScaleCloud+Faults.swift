import Foundation
import Glibc
import PostgresInstance

extension ScaleCloud {
    /// How long a crashed shard stays down before it starts again.
    public static let shardDowntime: Duration = .seconds(5)
    /// How long a frozen shard hangs: longer than cloudd's round-trip limit (10 s), so that
    /// calls time out rather than only wait.
    public static let shardPause: Duration = .seconds(12)

    /// Kills the first cloudd replica with SIGKILL, as a machine's loss would: its devices must
    /// move to the others. Says what it did.
    public func killReplica(state: LabState) throws -> String {
        guard replicas.count >= 2, let pid = pids.first else {
            throw LabFailure("kill-replica needs two cloudd replicas or more (--replicas 2): the devices need one to move to")
        }
        guard kill(pid, SIGKILL) == 0 else { throw LabFailure("could not kill cloudd replica 0 (pid \(pid))") }
        if var record = LabRecord.read(state) {
            record.processes.removeAll { $0.name == "cloudd-replica-0" }
            try? record.write(state)
        }
        return "cloudd replica 0 (pid \(pid), \(replicas[0])) killed with SIGKILL"
    }

    /// Crashes the first PostgreSQL shard (immediate shutdown, no checkpoint) and starts it again
    /// after ``shardDowntime``, recovering from its write-ahead log. Says what it did.
    public func restartShard(state: LabState) async throws -> String {
        guard let shard = shards.first else { throw LabFailure("restart-shard needs a shard of the fleet's own (--shards 1 or more)") }
        try shard.crash()
        let crashed = ContinuousClock.now
        try? await Task.sleep(for: Self.shardDowntime)
        try shard.start(durable: true)
        let down = ContinuousClock.now - crashed
        if var record = LabRecord.read(state), let pid = shard.serverPID,
            let index = record.processes.firstIndex(where: { $0.name == "postgres-shard-0" })
        {
            record.processes[index].pid = pid
            try? record.write(state)
        }
        return String(format: "PostgreSQL shard 0 crashed (immediate shutdown) and started again %.1f s later", down / .seconds(1))
    }

    /// Freezes the first PostgreSQL shard (``PostgresInstance/pause()``) for ``shardPause``, as
    /// a machine gone silent with its connections open, then thaws it. Says what it did.
    public func pauseShard() async throws -> String {
        guard let shard = shards.first else { throw LabFailure("pause-shard needs a shard of the fleet's own (--shards 1 or more)") }
        try shard.pause()
        let paused = ContinuousClock.now
        try? await Task.sleep(for: Self.shardPause)
        shard.resume()
        let hung = ContinuousClock.now - paused
        return String(format: "PostgreSQL shard 0 frozen (SIGSTOP) and thawed %.1f s later", hung / .seconds(1))
    }

    /// Crashes the first shard's primary (immediate shutdown) and promotes its synchronous
    /// standby (`pg_ctl promote`), as an operator would on losing the primary's machine: every
    /// acknowledged commit is on the standby already. Says what it did.
    public func promoteStandby(state: LabState) throws -> String {
        guard let primary = shards.first, let standby = standbys.first else {
            throw LabFailure("promote-standby needs shards with standbys (kclab fleet starts them when the fault is asked for)")
        }
        try primary.crash()
        let crashed = ContinuousClock.now
        try standby.promote()
        let took = ContinuousClock.now - crashed
        return String(format: "shard 0's primary crashed; its standby was promoted in %.1f s", took / .seconds(1))
    }
}
