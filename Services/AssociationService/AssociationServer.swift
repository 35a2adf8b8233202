import AppIdentity
import CMSSupport
public import Foundation
public import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceSupport
import SiteAssociationFetch
import WorldBuilder

/// associationd: every device's associated domains, behind HTTPS with mutual TLS.
public enum AssociationServer {
    public struct Configuration: Sendable {
        public var world: URL
        /// Database and endpoint.json.
        public var state: URL
        public var host: String
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

        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// The application, and the center whose retries the caller schedules.
    public static func application(_ configuration: Configuration, logger: Logger) throws -> (some ApplicationProtocol, AssociationCenter) {
        let layout = WorldLayout(root: configuration.world)
        let webTrust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.webRootCA)))
        let appleTrust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA)))
        let fetcher = SiteFetcher(trustRoots: try TLSIdentities.webRoots(world: configuration.world), resolve: configuration.resolve)
        let center = AssociationCenter(
            store: try AssociationStore(directory: configuration.state),
            judge: AssociationVerifier(fetcher: fetcher, trust: webTrust, cdn: configuration.cdn)
        )
        let router = Router(context: DeviceRequestContext.self)
        AssociationRoutes(center: center, verifier: SignatureVerifier(trust: appleTrust)).add(to: router)
        let endpointFile = configuration.endpointFile
        let host = configuration.host
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: TLSIdentities.server(world: configuration.world, service: "associationd")),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "associationd"),
            onServerRunning: { channel in
                Endpoint.announce(service: "associationd", host: host, port: channel.localAddress?.port ?? 0, to: endpointFile, logger: logger)
            },
            logger: logger
        )
        return (app, center)
    }
}
