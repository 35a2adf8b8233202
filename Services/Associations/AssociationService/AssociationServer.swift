import AppIdentity
import AssociationAPI
import CMSSupport
public import Foundation
import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
public import ServiceMetrics
import ServiceSupport
import SiteAssociation
import SiteAssociationFetch
import WorldLayout

/// associationd: every device's associated domains, behind HTTPS with mutual TLS.
public enum AssociationServer {
    public struct Configuration: Sendable {
        public var world: URL
        /// Database and endpoint.json.
        public var state: URL
        public var host: String
        /// The host name clients reach the daemon by, written to endpoint.json; nil: `host`.
        public var advertise: String?
        public var port: Int
        /// The Apple-like CDN's base URL, for iOS 14+ devices; nil makes every device fetch directly.
        public var cdn: String?
        /// Sites reached at another address: host → (address, port), as the lab's nginx.
        public var resolve: [String: (address: String, port: Int?)]
        /// How often due retries are looked for, in seconds.
        public var retryTick: Int

        public init(
            world: URL,
            state: URL,
            host: String = "127.0.0.1",
            port: Int = 7702,
            cdn: String? = nil,
            resolve: [String: (address: String, port: Int?)] = [:],
            retryTick: Int = 60
        ) {
            self.world = world
            self.state = state
            self.host = host
            self.port = port
            self.cdn = cdn
            self.resolve = resolve
            self.retryTick = retryTick
        }

        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9702)

        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// Runs associationd until SIGTERM or SIGINT: the API, and a retry of the pending sites that
    /// are due every `retryTick` seconds; then closes its HTTP client.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let fetcher = SiteFetcher(trustRoots: try TLSIdentities.webRoots(world: configuration.world), resolve: configuration.resolve)
        var services: [any Service] = []
        do {
            if let address = configuration.metrics { services.append(try await MetricsServer.start(at: address, logger: logger)) }
            let (app, center) = try application(
                configuration,
                fetcher: fetcher,
                metricsURL: (services.first as? MetricsServer)?.url,
                logger: logger
            )
            let retries = RepeatingWork(every: .seconds(configuration.retryTick)) {
                for record in (try? await center.retryDue()) ?? [] {
                    logger.info("retried", metadata: ["app.id": "\(record.appID)", "entry": "\(record.entry)", "state": "\(record.state.rawValue)"])
                }
            }
            services += [app, retries] as [any Service]
        } catch {
            for case let metrics as MetricsServer in services { metrics.close() }
            await fetcher.shutdown()
            throw error
        }
        try await DaemonLifecycle.run(services, logger: logger, finally: { await fetcher.shutdown() })
    }

    /// The application, and the center whose retries the caller schedules.
    static func application(
        _ configuration: Configuration,
        fetcher: SiteFetcher,
        metricsURL: String?,
        logger: Logger
    ) throws -> (some ApplicationProtocol, AssociationCenter) {
        let layout = WorldLayout(root: configuration.world)
        let webTrust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.webRootCA)))
        let appleTrust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA)))
        let center = AssociationCenter(
            store: try AssociationStore(directory: configuration.state),
            judge: AssociationVerifier(fetcher: fetcher, trust: webTrust, cdn: configuration.cdn)
        )
        let router = Router(context: DeviceRequestContext.self)
        AssociationRoutes(center: center, verifier: SignatureVerifier(trust: appleTrust)).add(to: router)
        let endpointFile = configuration.endpointFile
        let host = configuration.advertise ?? configuration.host
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: TLSIdentities.server(world: configuration.world, service: "associationd")),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "associationd"),
            onServerRunning: { channel in
                Endpoint.announce(
                    service: "associationd",
                    host: host,
                    port: channel.localAddress?.port ?? 0,
                    to: endpointFile,
                    logger: logger,
                    metrics: metricsURL
                )
            },
            logger: logger
        )
        return (app, center)
    }
}
