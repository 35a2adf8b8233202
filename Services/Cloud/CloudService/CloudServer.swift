import CloudStore
import CloudZones
public import Foundation
import Hummingbird
public import Logging
public import ServiceMetrics
public import ServiceSupport

/// cloudd: the iCloud accounts' zones, behind HTTPS with mutual TLS (docs/icloud-keychain.md).
public enum CloudServer {
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world, the folder of the database and endpoint.json, and where to listen.
        public var daemon: DaemonConfiguration
        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9705)

        /// The audit log: `STATE/audit.jsonl`.
        public var auditFile: URL { daemon.state.appending(path: "audit.jsonl") }

        public init(_ daemon: DaemonConfiguration) {
            self.daemon = daemon
        }
    }

    /// Runs cloudd until SIGTERM or SIGINT.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        try await DaemonLifecycle.run(metrics: configuration.metrics, logger: logger) { metricsURL in
            let zones = CloudZones(storage: try SQLiteZoneStorage(directory: configuration.state))
            let router = Router(context: DeviceRequestContext.self)
            let audit = CloudAuditLog(file: configuration.auditFile, logger: logger)
            let routes = CloudRoutes(zones: zones, watch: ChangeWatch<ZoneID>(), audit: audit)
            routes.add(to: router)
            routes.addAdminRoutes(to: router)
            let tls = try TLSIdentities.server(world: configuration.world, service: "cloudd")
            return [try configuration.daemon.application("cloudd", router: router, tls: tls, logger: logger, metrics: metricsURL), audit]
        }
    }
}
