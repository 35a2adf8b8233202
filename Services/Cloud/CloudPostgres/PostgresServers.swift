public import Logging
public import NIOCore
public import PostgresNIO

/// The servers of one store, in the order they are tried: one, or a primary and its standbys
/// (`postgres://USER@HOST1:PORT1,HOST2:PORT2/DATABASE`). With several, a connection is kept only
/// with a server that accepts writes, as libpq's `target_session_attrs=read-write` does: after a
/// standby is promoted, cloudd's next connection finds it (docs/scale.md).
public struct PostgresServers: Sendable {
    public let configurations: [PostgresConnection.Configuration]

    public init(_ configurations: [PostgresConnection.Configuration]) {
        precondition(!configurations.isEmpty, "a store needs a server")
        self.configurations = configurations
    }

    /// A server that answered but takes no writes (a standby).
    public struct ReadOnly: Error, CustomStringConvertible {
        public let description = "the server is a standby (it takes no writes)"
    }

    /// Connects to the first server that answers and, when there are several, takes writes.
    public func connect(logger: Logger) -> EventLoopFuture<PostgresConnection> {
        connect(from: 0, logger: logger)
    }

    private func connect(from index: Int, logger: Logger) -> EventLoopFuture<PostgresConnection> {
        let loop = PostgresConnection.defaultEventLoopGroup.any()
        let opened = PostgresConnection.connect(
            on: loop,
            configuration: configurations[index],
            id: Int.random(in: 1...Int(Int32.max)),
            logger: logger
        )
        let checked =
            configurations.count == 1
            ? opened
            : opened.flatMap { connection in
                connection.query("SHOW transaction_read_only", logger: logger).flatMapThrowing { result in
                    guard try result.rows.first?.decode(String.self) == "off" else { throw ReadOnly() }
                    return connection
                }
                .flatMapError { error in connection.close().flatMapThrowing { throw error } }
            }
        guard index + 1 < configurations.count else { return checked }
        return checked.flatMapError { _ in connect(from: index + 1, logger: logger) }
    }
}
