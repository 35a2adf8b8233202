public import CloudZones
public import Logging
import PostgresNIO

/// What every cloudd on one PostgreSQL database hears of the others' writes: it LISTENs on
/// ``PostgresZoneStorage/changeChannel`` on a connection of its own and reports each zone a
/// committed batch changed. A notification sent while it was not listening (the connection was
/// lost, the server restarted) is never delivered, so after each (re)connection it reports a
/// resume, on which every waiter looks at its zone's change token again: catch-up from tokens.
public struct PostgresZoneFeed: Sendable {
    let servers: PostgresServers
    let logger: Logger

    public init(servers: PostgresServers, logger: Logger) {
        self.servers = servers
        self.logger = logger
    }

    /// Listens until the task is cancelled, connecting again after a loss (100 ms, doubling to
    /// 5 s); `onChange` gets each zone changed, `onResume` each time listening (re)starts.
    public func run(onChange: @escaping @Sendable (ZoneID) -> Void, onResume: @escaping @Sendable () -> Void) async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let connection = try await servers.connect(logger: logger).get()
                do {
                    try await connection.listen(on: PostgresZoneStorage.changeChannel) { notifications in
                        logger.info("listening for other replicas' changes")
                        onResume()
                        pause = .milliseconds(100)
                        for try await notification in notifications {
                            if let zone = Self.zone(notification.payload) { onChange(zone) }
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

    /// The zone a notification names: `VIEW/ACCOUNT`.
    static func zone(_ payload: String) -> ZoneID? {
        guard let slash = payload.firstIndex(of: "/") else { return nil }
        return ZoneID(account: String(payload[payload.index(after: slash)...]), view: String(payload[..<slash]))
    }
}
