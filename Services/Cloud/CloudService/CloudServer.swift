import CloudAPI
import CloudPostgres
import CloudStore
import CloudZones
public import Foundation
import Hummingbird
public import Logging
import NIOCore
import NIOPosix
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
        /// Where the zones are kept: one store, or several as shards (accounts spread by a stable
        /// hash, in this order); none: `zones.sqlite` in the state folder.
        public var stores: [CloudStoreLocation] = []

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
            let (shards, postgresFeeds) = try openStores(configuration, logger: logger)
            // Known change numbers are trusted while every feed of other replicas' writes listens.
            let tokens = ZoneTokens(feeds: postgresFeeds.count)
            let feeds: [any Service] = postgresFeeds.enumerated().map { index, feed in
                ZoneFeedService(feed: feed, index: index, watch: watch, tokens: tokens)
            }
            let storage = shards.count == 1 ? shards[0] : ShardedZoneStorage(shards: shards)
            let zones = CloudZones(storage: storage)
            let router = Router(context: DeviceRequestContext.self)
            router.add(middleware: StoreUnavailableMiddleware())
            let audit = CloudAuditLog(file: configuration.auditFile, logger: logger)
            // A store call blocks its thread for every round trip to the database: a thread for
            // each connection, in a pool for each shard (docs/scale.md).
            let pools = StorePools(shards: shards)
            let routes = CloudRoutes(zones: zones, watch: watch, tokens: tokens, audit: audit, pools: pools)
            routes.add(to: router)
            routes.addAdminRoutes(to: router)
            let tls = try TLSIdentities.server(world: configuration.world, service: "cloudd")
            let application = try configuration.daemon.application("cloudd", router: router, tls: tls, logger: logger, metrics: metricsURL)
            // The store's service first, so that it is shut down last, once no request is left.
            return [StoreService(pools: pools, storage: storage), application, audit] + feeds
        }
    }

    /// The stores `configuration` names (several: the shards, in the shard map's order), and for
    /// each on PostgreSQL the feed that wakes this replica's waiters on the other replicas' writes.
    static func openStores(
        _ configuration: Configuration,
        logger: Logger
    ) throws -> ([any ZoneStorage], [PostgresZoneFeed]) {
        let locations = configuration.stores.isEmpty ? [.sqlite(configuration.state.appending(path: "zones.sqlite"))] : configuration.stores
        var shards: [any ZoneStorage] = []
        var feeds: [PostgresZoneFeed] = []
        for (index, location) in locations.enumerated() {
            logger.info("zones in \(location)", metadata: ["shard": "\(index) of \(locations.count)"])
            switch location {
            case .sqlite(let file):
                shards.append(try SQLiteZoneStorage(directory: file.deletingLastPathComponent(), file: file.lastPathComponent))
            case .postgres(let postgres):
                let servers = try postgres.servers()
                shards.append(try PostgresZoneStorage(servers: servers, connections: postgres.connections, logger: logger))
                feeds.append(PostgresZoneFeed(servers: servers, logger: logger))
            }
        }
        return (shards, feeds)
    }
}

/// The PostgreSQL feed as one of the daemon's services: ends at graceful shutdown. A change it
/// hears is remembered before its waiters wake, so that they answer from it.
struct ZoneFeedService: Service {
    let feed: PostgresZoneFeed
    /// Its place among the replica's feeds (one a PostgreSQL shard).
    let index: Int
    let watch: ChangeWatch<ZoneID>
    let tokens: ZoneTokens

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await feed.run(
                onChange: { heard in
                    if let latest = heard.latest { tokens.heard(heard.zone, latest) }
                    watch.changed(heard.zone)
                },
                onResume: {
                    tokens.feedListens(index)
                    watch.changedEverything()
                },
                onLoss: { tokens.feedLost(index) }
            )
        }
    }
}

/// The store's threads and connections as one of the daemon's services: at shutdown, the store
/// closes its connections on a thread of a pool (a connection dropped open is a fault
/// postgres-nio's debug builds stop on), then the pools end.
struct StoreService: Service {
    let pools: StorePools
    let storage: any ZoneStorage

    func run() async throws {
        try? await gracefulShutdown()
        try await pools.shutdown { storage.close() }
    }
}

/// A store that cannot be reached now answers 503 `storeUnavailable`, which a device retries,
/// rather than the 500 of a fault.
struct StoreUnavailableMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let unavailable as ZoneStoreUnavailable {
            throw ProblemResponse(CloudAPI.ProblemCode.storeUnavailable, unavailable.description)
        }
    }
}
