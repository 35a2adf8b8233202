import Synchronization

/// Read-only connections for lookups, taken by the calling thread for one read and given back.
///
/// keychaind's calls run on two or three event-loop threads, so a handful of connections serve
/// them; a lookup on the calling thread costs less than handing it to another thread. In WAL mode
/// readers never wait for the writer.
final class LookupConnections: Sendable {
    private let path: String
    /// Connections not in use; every access holds this Mutex. A connection is used by one thread
    /// at a time: it is out of this list while it is.
    private let idle = Mutex<[Idle]>([])
    /// More idle connections than this are closed when given back.
    static let kept = 8

    /// Owns an idle connection; only moved in and out of `idle` under its lock.
    private struct Idle: @unchecked Sendable {
        let statements: SQLiteStatements
    }

    init(path: String) {
        self.path = path
    }

    /// Runs `body` on a connection of its own.
    func with<T>(_ body: (SQLiteStatements) throws -> T) throws -> T {
        let statements = try idle.withLock { $0.popLast() }?.statements ?? SQLiteStatements(readOnlyPath: path)
        defer {
            // A connection still inside a transaction is closed rather than kept.
            if !statements.isInTransaction {
                let connection = Idle(statements: statements)
                idle.withLock { idle in
                    if idle.count < Self.kept { idle.append(connection) }
                }
            }
        }
        return try body(statements)
    }
}
