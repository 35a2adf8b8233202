import CloudZones
public import Logging
import PostgresNIO

/// What every cloudd on one PostgreSQL database hears of the others' writes: it LISTENs on
/// ``PostgresZoneStorage/changeChannel`` on a connection of its own and reports each zone a
/// committed batch changed, with the zone's change number then (``ZoneNotification``). A
/// notification sent while it was not listening (the connection was lost, the server
/// restarted) is never delivered, so it reports each loss (from then on what it heard says
/// nothing of the zones) and each (re)connection, a resume, on which every waiter looks at its
/// zone's change token again: catch-up from tokens.
public struct PostgresZoneFeed: Sendable {
    let servers: PostgresServers
    let logger: Logger

    public init(servers: PostgresServers, logger: Logger) {
        self.servers = servers
        self.logger = logger
    }

    /// Listens until the task is cancelled, connecting again after a loss (100 ms, doubling to
    /// 5 s); `onChange` gets each zone changed, `onResume` each time listening (re)starts, and
    /// `onLoss` each time a connection of the feed ends (also one that never listened).
    public func run(
        onChange: @escaping @Sendable (ZoneNotification) -> Void,
        onResume: @escaping @Sendable () -> Void,
        onLoss: @escaping @Sendable () -> Void = {}
    ) async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await servers.connect(logger: logger).get()
                // However listening ends, what was heard since says nothing of what follows.
                defer { onLoss() }
                do {
                    try await connection.listen(on: PostgresZoneStorage.changeChannel) { notifications in
                        logger.info("listening for other replicas' changes")
                        onResume()
                        pause = .milliseconds(100)
                        for try await notification in notifications {
                            if let heard = ZoneNotification(payload: notification.payload) { onChange(heard) }
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "the change feed was lost; connecting again",
                    metadata: ["error": "\(String(reflecting: error))", "pause": "\(pause)"]
                )
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}
