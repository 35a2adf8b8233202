public import Foundation
import PostgresInstance

extension LabRecord.Process {
    /// The record of a PostgreSQL server a lab or a fleet started: its postmaster's PID, and with
    /// `ownFolder` its folder, which goes when the lab does (`kclab down`) and which
    /// `kclab restart` starts the server from again. A server that wrote no PID is refused: a
    /// PID 0 in the record would have `kclab down` signal its own process group.
    init(database server: PostgresInstance, name: String, ownFolder: Bool) throws {
        guard let pid = server.serverPID, pid > 0 else {
            throw LabFailure("PostgreSQL started in \(server.folder.path) but wrote no postmaster.pid")
        }
        self.init(name: name, pid: pid, folder: ownFolder ? server.folder.path : nil)
    }

    /// The server log of a PostgreSQL server of the lab's own (a process with a folder).
    public var databaseLog: URL? {
        folder.map { PostgresInstance.logFile(in: URL(fileURLWithPath: $0)) }
    }
}

extension Lab {
    /// The most PostgreSQL servers (shards) `up` starts for the lab's cloudd.
    public static let maximumClouddShards = 4

    /// The record name of the lab's PostgreSQL server `number`: `postgres`, `postgres-2`, …
    static func databaseName(_ number: Int) -> String {
        number <= 1 ? "postgres" : "postgres-\(number)"
    }

    /// Starts `count` durable PostgreSQL servers of the lab's own, each entered in `record` as
    /// soon as it runs, and gives the `--store` URLs in shard-map order.
    static func startDatabases(
        _ count: Int,
        record: inout LabRecord,
        state: LabState,
        progress: (String) -> Void
    ) throws -> [String] {
        var urls: [String] = []
        for number in 1...count {
            progress("starting PostgreSQL \(databaseName(number))" + (count > 1 ? " (shard \(number) of \(count))" : ""))
            let server = try PostgresInstance(durable: true)
            do {
                record.processes.append(try .init(database: server, name: databaseName(number), ownFolder: true))
            } catch {
                server.stop()
                throw error
            }
            try record.write(state)
            urls.append(server.url)
        }
        return urls
    }

    /// Stops the lab's PostgreSQL server recorded as `process` (fast shutdown, or nothing to do
    /// after a crash) and starts it again from its folder on the same port, so cloudd's
    /// connections find it where they were. Returns the new postmaster's PID.
    static func restartDatabase(_ process: LabRecord.Process) throws -> Int32 {
        guard let folder = process.folder else {
            throw LabFailure("\(process.name) is not a PostgreSQL server of the lab's own")
        }
        let server = try PostgresInstance(reopening: URL(fileURLWithPath: folder))
        server.stop(removing: false)
        try server.start(durable: true)
        return try LabRecord.Process(database: server, name: process.name, ownFolder: true).pid
    }
}
