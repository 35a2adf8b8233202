import AppIdentity
import CMSSupport
public import Foundation
import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import ServiceLifecycle
public import ServiceMetrics
import ServiceSupport
import WorldLayout

/// webcredentiald: shared web credentials for every device, behind HTTPS with mutual TLS.
public enum WebCredentialServer {
    public struct Configuration: Sendable {
        /// The built world: TLS identities, trust roots.
        public var world: URL
        /// approvals.sqlite and endpoint.json.
        public var state: URL
        public var host: String
        /// The host name clients reach the daemon by, written to endpoint.json; nil: `host`.
        public var advertise: String?
        public var port: Int
        /// keychaind's base URL.
        public var keychaind: String
        /// associationd's base URL.
        public var associationd: String

        public init(world: URL, state: URL, host: String = "127.0.0.1", port: Int = 7703, keychaind: String, associationd: String) {
            self.world = world
            self.state = state
            self.host = host
            self.port = port
            self.keychaind = keychaind
            self.associationd = associationd
        }

        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9703)

        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// Runs webcredentiald until SIGTERM or SIGINT, then closes its connections to keychaind and
    /// associationd (an HTTP client must be shut down before it goes).
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let tls = try TLSIdentities.systemServiceClient(world: configuration.world, service: "webcredentiald")
        let keychaind = ServiceClient(baseURL: configuration.keychaind, tls: tls)
        let associationd = ServiceClient(baseURL: configuration.associationd, tls: tls)
        let closeClients: @Sendable () async -> Void = {
            await keychaind.shutdown()
            await associationd.shutdown()
        }
        var services: [any Service] = []
        do {
            var metricsURL: String? = nil
            if let address = configuration.metrics {
                let metrics = try await MetricsServer.start(at: address, logger: logger)
                metricsURL = metrics.url
                services.append(metrics)
            }
            services.append(try application(configuration, keychaind: keychaind, associationd: associationd, metricsURL: metricsURL, logger: logger))
        } catch {
            for case let metrics as MetricsServer in services { metrics.close() }
            await closeClients()
            throw error
        }
        try await DaemonLifecycle.run(services, logger: logger, finally: closeClients)
    }

    /// The application, ready to run as a Service, calling keychaind and associationd with the clients given.
    static func application(
        _ configuration: Configuration,
        keychaind: ServiceClient,
        associationd: ServiceClient,
        metricsURL: String?,
        logger: Logger
    ) throws -> some ApplicationProtocol {
        let layout = WorldLayout(root: configuration.world)
        let routes = WebCredentialRoutes(
            verifier: SignatureVerifier(trust: try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA)))),
            keychaind: keychaind,
            associationd: associationd,
            approvals: try ApprovalStore(directory: configuration.state)
        )
        let router = Router(context: DeviceRequestContext.self)
        routes.add(to: router)
        let endpointFile = configuration.endpointFile
        let host = configuration.advertise ?? configuration.host
        return Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: TLSIdentities.server(world: configuration.world, service: "webcredentiald")),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "webcredentiald"),
            onServerRunning: { channel in
                Endpoint.announce(
                    service: "webcredentiald",
                    host: host,
                    port: channel.localAddress?.port ?? 0,
                    to: endpointFile,
                    logger: logger,
                    metrics: metricsURL
                )
            },
            logger: logger
        )
    }
}
