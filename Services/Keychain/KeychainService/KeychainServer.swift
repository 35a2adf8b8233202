import CMSSupport
public import Foundation
import Hummingbird
import HummingbirdTLS
import KeychainItems
import KeychainStore
import KeychainTypes
public import Logging
import NIOCore
import ServiceLifecycle
public import ServiceMetrics
public import ServiceSupport
import UnixSignals
import WorldLayout

/// keychaind: the keychain of every device, behind HTTPS with mutual TLS.
public enum KeychainServer {
    /// How keychaind runs; every key has a flag and an environment variable (see keychaind --help).
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world (TLS identity, trust roots), the folder of the database, the keys and
        /// the endpoint file, and where the HTTP API listens.
        public var daemon: DaemonConfiguration
        /// The call channel's port; 0 picks a free one (written to the endpoint file as `calls`).
        public var callsPort: Int
        /// Where Prometheus metrics are served (written to the endpoint file as `metrics`); nil
        /// serves none.
        public var metrics: MetricsAddress?
        /// Whether the audit log is written to `STATE/audit.jsonl` (it is always kept in memory).
        public var writesAuditLog: Bool

        public init(
            _ daemon: DaemonConfiguration,
            callsPort: Int = 7711,
            metrics: MetricsAddress? = MetricsAddress(port: 9701),
            writesAuditLog: Bool = true
        ) {
            self.daemon = daemon
            self.callsPort = callsPort
            self.metrics = metrics
            self.writesAuditLog = writesAuditLog
        }

        /// `STATE/audit.jsonl`.
        public var auditFile: URL { daemon.state.appending(path: "audit.jsonl") }
    }

    /// Runs keychaind until SIGTERM or SIGINT: the HTTP API and the call channel, sharing one
    /// engine; the endpoint file is written once both listen.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let store = try SQLiteItemStore(directory: configuration.state)
        let trust = try TrustStore(pem: Data(contentsOf: WorldLayout(root: configuration.world).url(WorldLayout.rootCA)))
        let audit = KeychainAuditLog(file: configuration.writesAuditLog ? configuration.auditFile : nil, logger: logger)
        let syncWatch = ChangeWatch<String>()
        let calls = KeychainCalls(
            engine: KeychainEngine(store: SyncSignallingStore(store) { keychains in for keychain in keychains { syncWatch.changed(keychain) } }),
            syncWatch: syncWatch,
            apps: AppRegistry(trust: trust, now: { Date() }),
            devices: DeviceRegistry(file: configuration.state.appending(path: "devices.json")),
            recorder: KeychainRecorder(audit: audit),
            logins: LoginKeychains(file: configuration.state.appending(path: "login-keychains.json"))
        )
        let tls = try TLSIdentities.server(world: configuration.world, service: "keychaind")
        let router = Router(context: DeviceRequestContext.self)
        let routes = KeychainRoutes(calls: calls)
        routes.add(to: router)
        routes.addSystemRoutes(to: router)
        routes.addAdminRoutes(to: router)
        routes.addResetRoute(to: router)
        routes.addAuditRoute(to: router)
        routes.addExplainRoute(to: router)
        routes.addLoginKeychainRoutes(to: router)
        routes.addSyncRoutes(to: router)
        let refresh: @Sendable () async -> Void = { await calls.recorder.recordItemCounts(store) }
        try await DaemonLifecycle.run(metrics: configuration.metrics, refresh: refresh, logger: logger) { metricsURL in
            let callServer = try await CallChannelServer.bind(
                host: configuration.host,
                port: configuration.callsPort,
                tls: tls,
                calls: calls,
                logger: logger
            )
            let callsAddress = "\(configuration.advertise ?? configuration.host):\(callServer.port)"
            let application = try configuration.daemon.application(
                "keychaind",
                router: router,
                tls: tls,
                logger: logger,
                calls: callsAddress,
                metrics: metricsURL
            )
            return [application, callServer, audit]
        }
    }
}
