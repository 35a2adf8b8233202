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
import ServiceSupport
import UnixSignals
import WorldLayout

/// keychaind: the keychain of every device, behind HTTPS with mutual TLS.
public enum KeychainServer {
    /// How keychaind runs; every key has a flag and an environment variable (see keychaind --help).
    public struct Configuration: Sendable {
        /// The built world: TLS identity, trust roots.
        public var world: URL
        /// Where the database, the keys and the endpoint file live.
        public var state: URL
        /// The address to bind; loopback by default.
        public var host: String
        /// The host name clients reach the daemon by, written to endpoint.json; nil: `host`.
        public var advertise: String?
        /// The port; 0 picks a free one (written to the endpoint file).
        public var port: Int
        /// The call channel's port; 0 picks a free one (written to the endpoint file as `calls`).
        public var callsPort: Int
        /// Where Prometheus metrics are served (written to the endpoint file as `metrics`); nil
        /// serves none.
        public var metrics: MetricsAddress?
        /// Whether the audit log is written to `STATE/audit.jsonl` (it is always kept in memory).
        public var writesAuditLog: Bool

        public init(
            world: URL,
            state: URL,
            host: String = "127.0.0.1",
            port: Int = 7701,
            callsPort: Int = 7711,
            metrics: MetricsAddress? = MetricsAddress(port: 9701),
            writesAuditLog: Bool = true
        ) {
            self.world = world
            self.state = state
            self.host = host
            self.port = port
            self.callsPort = callsPort
            self.metrics = metrics
            self.writesAuditLog = writesAuditLog
        }

        /// `STATE/audit.jsonl`.
        public var auditFile: URL { state.appending(path: "audit.jsonl") }

        /// `STATE/endpoint.json`.
        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// Runs keychaind until SIGTERM or SIGINT: the HTTP API and the call channel, sharing one
    /// engine; the endpoint file is written once both listen.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let store = try SQLiteItemStore(directory: configuration.state)
        let trust = try TrustStore(pem: Data(contentsOf: WorldLayout(root: configuration.world).url(WorldLayout.rootCA)))
        let audit = AuditLog(file: configuration.writesAuditLog ? configuration.auditFile : nil, logger: logger)
        let calls = KeychainCalls(
            engine: KeychainEngine(store: store),
            apps: AppRegistry(trust: trust, now: { Date() }),
            devices: DeviceRegistry(file: configuration.state.appending(path: "devices.json")),
            recorder: KeychainRecorder(audit: audit),
            logins: LoginKeychains(file: configuration.state.appending(path: "login-keychains.json"))
        )
        var metrics: MetricsServer? = nil
        if let address = configuration.metrics {
            metrics = try await MetricsServer.start(at: address, logger: logger) {
                await calls.recorder.recordItemCounts(store)
            }
        }
        let tls = try TLSIdentities.server(world: configuration.world, service: "keychaind")
        let callServer = try await CallChannelServer.bind(
            host: configuration.host,
            port: configuration.callsPort,
            tls: tls,
            calls: calls,
            logger: logger
        )
        let router = Router(context: DeviceRequestContext.self)
        let routes = KeychainRoutes(calls: calls)
        routes.add(to: router)
        routes.addSystemRoutes(to: router)
        routes.addAdminRoutes(to: router)
        routes.addResetRoute(to: router)
        routes.addExplainRoute(to: router)
        routes.addLoginKeychainRoutes(to: router)
        let endpointFile = configuration.endpointFile
        let host = configuration.advertise ?? configuration.host
        let callsAddress = "\(host):\(callServer.port)"
        let metricsURL = metrics?.url
        let application = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "keychaind"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                Endpoint.announce(
                    service: "keychaind",
                    host: host,
                    port: port,
                    to: endpointFile,
                    logger: logger,
                    calls: callsAddress,
                    metrics: metricsURL
                )
            },
            logger: logger
        )
        try await DaemonLifecycle.run([application, callServer, audit] + (metrics.map { [$0] } ?? []), logger: logger)
    }
}
