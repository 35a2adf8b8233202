import CMSSupport
public import Foundation
public import Hummingbird
import HummingbirdTLS
import KeychainItems
import KeychainStore
import KeychainTypes
public import Logging
import NIOCore
import ServiceSupport
import WorldBuilder

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
        /// The port; 0 picks a free one (written to the endpoint file).
        public var port: Int

        public init(world: URL, state: URL, host: String = "127.0.0.1", port: Int = 7701) {
            self.world = world
            self.state = state
            self.host = host
            self.port = port
        }

        /// `STATE/endpoint.json`.
        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// The application, ready to run as a Service.
    public static func application(_ configuration: Configuration, logger: Logger) throws -> some ApplicationProtocol {
        let store = try SQLiteItemStore(directory: configuration.state)
        let trust = try TrustStore(pem: Data(contentsOf: WorldLayout(root: configuration.world).url(WorldLayout.rootCA)))
        let routes = KeychainRoutes(
            engine: KeychainEngine(store: store),
            apps: AppRegistry(trust: trust, now: { Date() }),
            devices: DeviceRegistry()
        )
        let router = Router(context: DeviceRequestContext.self)
        routes.add(to: router)
        routes.addSystemRoutes(to: router)
        let tls = try TLSIdentities.server(world: configuration.world, service: "keychaind")
        let endpointFile = configuration.endpointFile
        let host = configuration.host
        return Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "keychaind"),
            onServerRunning: { channel in
                Endpoint.announce(service: "keychaind", host: host, port: channel.localAddress?.port ?? 0, to: endpointFile, logger: logger)
            },
            logger: logger
        )
    }
}
