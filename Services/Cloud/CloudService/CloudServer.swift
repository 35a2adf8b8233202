import CloudPostgres
import CloudStore
import CloudZones
public import Foundation
import Hummingbird
public import Logging
import ServiceLifecycle
public import ServiceMetrics
public import ServiceSupport

/// cloudd: the iCloud accounts' zones, behind HTTPS with mutual TLS (docs/icloud-keychain.md).
public enum CloudServer {
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world, the folder of the database and endpoint.json, and where to listen.
        public var daemon: DaemonConfiguration
        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9705)
        /// Where the zones are kept; nil: `zones.sqlite` in the state folder.
        public var store: CloudStoreLocation?

        /// The audit log: `STATE/audit.jsonl`.
        public var auditFile: URL { daemon.state.appending(path: "audit.jsonl") }

        public init(_ daemon: DaemonConfiguration) {
            self.daemon = daemon
        }
    }

    /// Runs cloudd until SIGTERM or SIGINT.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        try await DaemonLifecycle.run(metrics: configuration.metrics, logger: logger) { metricsURL in
            let watch = ChangeWatch<ZoneID>()
            let (storage, feed) = try openStore(configuration, watch: watch, logger: logger)
            let zones = CloudZones(storage: storage)
            let router = Router(context: DeviceRequestContext.self)
            let audit = CloudAuditLog(file: configuration.auditFile, logger: logger)
            let routes = CloudRoutes(zones: zones, watch: watch, audit: audit)
            routes.add(to: router)
            routes.addAdminRoutes(to: router)
            let tls = try TLSIdentities.server(world: configuration.world, service: "cloudd")
            let application = try configuration.daemon.application("cloudd", router: router, tls: tls, logger: logger, metrics: metricsURL)
            return [application, audit] + (feed.map { [$0] } ?? [])
        }
    }

    /// The store `configuration` names, and for PostgreSQL the feed that wakes this replica's
    /// waiters on the others' writes.
    static func openStore(
        _ configuration: Configuration,
        watch: ChangeWatch<ZoneID>,
        logger: Logger
    ) throws -> (any ZoneStorage, (any Service)?) {
        switch configuration.store ?? .sqlite(configuration.state.appending(path: "zones.sqlite")) {
        case .sqlite(let file):
            logger.info("zones in SQLite", metadata: ["store": "\(file.path)"])
            return (try SQLiteZoneStorage(directory: file.deletingLastPathComponent(), file: file.lastPathComponent), nil)
        case .postgres(let location):
            logger.info("zones in PostgreSQL", metadata: ["store": "\(location)"])
            let settings = try location.configuration()
            let feed = PostgresZoneFeed(configuration: settings, logger: logger)
            return (try PostgresZoneStorage(configuration: settings, logger: logger), ZoneFeedService(feed: feed, watch: watch))
        }
    }
}

/// The PostgreSQL feed as one of the daemon's services: ends at graceful shutdown.
struct ZoneFeedService: Service {
    let feed: PostgresZoneFeed
    let watch: ChangeWatch<ZoneID>

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await feed.run(onChange: { watch.changed($0) }, onResume: { watch.changedEverything() })
        }
    }
}
