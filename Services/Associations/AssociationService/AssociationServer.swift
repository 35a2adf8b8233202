import AppIdentity
import AssociationAPI
import CMSSupport
import Foundation
import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
public import ServiceMetrics
public import ServiceSupport
import SiteAssociation
import SiteAssociationFetch
import WorldLayout

/// associationd: every device's associated domains, behind HTTPS with mutual TLS.
public enum AssociationServer {
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world, the folder of the database and endpoint.json, and where to listen.
        public var daemon: DaemonConfiguration
        /// The Apple-like CDN's base URL, for iOS 14+ devices; nil makes every device fetch directly.
        public var cdn: String?
        /// Sites reached at another address: host → (address, port), as the lab's nginx.
        public var resolve: [String: (address: String, port: Int?)]
        /// How often due retries are looked for, in seconds.
        public var retryTick: Int

        public init(
            _ daemon: DaemonConfiguration,
            cdn: String? = nil,
            resolve: [String: (address: String, port: Int?)] = [:],
            retryTick: Int = 60
        ) {
            self.daemon = daemon
            self.cdn = cdn
            self.resolve = resolve
            self.retryTick = retryTick
        }

        /// Where Prometheus metrics are served (the endpoint file's `metrics`); nil serves none.
        public var metrics: MetricsAddress? = MetricsAddress(port: 9702)
    }

    /// Runs associationd until SIGTERM or SIGINT: the API, and a retry of the pending sites that
    /// are due every `retryTick` seconds; then closes its HTTP client.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let fetcher = SiteFetcher(trustRoots: try TLSIdentities.webRoots(world: configuration.world), resolve: configuration.resolve)
        let finally: @Sendable () async -> Void = { await fetcher.shutdown() }
        try await DaemonLifecycle.run(metrics: configuration.metrics, logger: logger, finally: finally) { metricsURL in
            let (app, center) = try application(configuration, fetcher: fetcher, metricsURL: metricsURL, logger: logger)
            let retries = RepeatingWork(every: .seconds(configuration.retryTick)) {
                for record in (try? await center.retryDue()) ?? [] {
                    logger.info("retried", metadata: ["app.id": "\(record.appID)", "entry": "\(record.entry)", "state": "\(record.state.rawValue)"])
                }
            }
            return [app, retries]
        }
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
        AssociationRoutes(center: center, verifier: SharedSignatureChecks(trust: appleTrust)).add(to: router)
        let tls = try TLSIdentities.server(world: configuration.world, service: "associationd")
        let app = try configuration.daemon.application("associationd", router: router, tls: tls, logger: logger, metrics: metricsURL)
        return (app, center)
    }
}
