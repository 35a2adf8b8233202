import AppIdentity
import CMSSupport
import Foundation
import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import ServiceLifecycle
public import ServiceMetrics
public import ServiceSupport
import WorldLayout

/// webcredentiald: shared web credentials for every device, behind HTTPS with mutual TLS.
public enum WebCredentialServer {
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world (TLS identities, trust roots), the folder of approvals.sqlite and
        /// endpoint.json, and where to listen.
        public var daemon: DaemonConfiguration
        /// keychaind's base URL.
        public var keychaind: String
        /// associationd's base URL.
        public var associationd: String

        public init(_ daemon: DaemonConfiguration, keychaind: String, associationd: String) {
            self.daemon = daemon
            self.keychaind = keychaind
            self.associationd = associationd
        }

        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9703)
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
        try await DaemonLifecycle.run(metrics: configuration.metrics, logger: logger, finally: closeClients) { metricsURL in
            [try application(configuration, keychaind: keychaind, associationd: associationd, metricsURL: metricsURL, logger: logger)]
        }
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
            verifier: SharedSignatureChecks(trust: try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA)))),
            keychaind: keychaind,
            associationd: associationd,
            approvals: try ApprovalStore(directory: configuration.state)
        )
        let router = Router(context: DeviceRequestContext.self)
        routes.add(to: router)
        let tls = try TLSIdentities.server(world: configuration.world, service: "webcredentiald")
        return try configuration.daemon.application("webcredentiald", router: router, tls: tls, logger: logger, metrics: metricsURL)
    }
}
