import Crypto
public import Foundation
import Hummingbird
public import Logging
import NIOCore
import ServiceSupport
public import WorldFile

/// The login website: HTML pages and a JSON API for every world website, on loopback HTTP behind
/// nginx (which terminates TLS with each host's certificate and passes the Host on).
public enum WebsiteServer {
    public struct Configuration: Sendable {
        public var world: World
        /// website.sqlite and endpoint.json.
        public var state: URL
        public var host: String
        public var port: Int
        public var hasher: PasswordHasher

        public init(world: World, state: URL, host: String = "127.0.0.1", port: Int = 7710, hasher: PasswordHasher = PasswordHasher()) {
            self.world = world
            self.state = state
            self.host = host
            self.port = port
            self.hasher = hasher
        }

        public var endpointFile: URL { state.appending(path: "endpoint.json") }

        /// The operator's socket (``adminApplication(_:store:logger:)``).
        public var adminSocket: URL { state.appending(path: WebsiteServer.adminSocketName) }
    }

    /// The name of the operator's socket in the state folder.
    public static let adminSocketName = "admin.sock"

    /// Runs the website until SIGTERM or SIGINT: the pages and API behind nginx, and the
    /// operator's socket, sharing one account store.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let store = try AccountStore(directory: configuration.state)
        try await DaemonLifecycle.run(
            [try application(configuration, store: store, logger: logger), adminApplication(configuration, store: store, logger: logger)],
            logger: logger
        )
    }

    /// The application, with the world's declared accounts added to the database.
    static func application(_ configuration: Configuration, store: AccountStore, logger: Logger) throws -> some ApplicationProtocol {
        let service = LoginService(store: store, hasher: configuration.hasher)
        for website in configuration.world.websites {
            for account in website.accounts where try service.seed(site: website.domain, username: account.username, password: account.password) {
                logger.info("account declared by the world", metadata: ["site": "\(website.domain)", "account": "\(account.username)"])
            }
        }
        let sites = SiteDirectory(world: configuration.world)
        let router = Router(context: WebsiteRequestContext.self)
        router.get("/healthz") { _, _ in try WebsiteRequest.json(["status": "ok"]) }
        let passkeys = PasskeyService(logins: service, sites: sites)
        let pages = HTMLRoutes(service: service, sites: sites, csrfKey: SymmetricKey(size: .bits256), passkeys: passkeys)
        pages.add(to: router)
        pages.addPasskeyPages(to: router)
        APIRoutes(service: service, sites: sites).add(to: router)
        PasskeyRoutes(passkeys: passkeys, sites: sites).add(to: router)
        let endpointFile = configuration.endpointFile
        let host = configuration.host
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "website"),
            onServerRunning: { channel in
                // Plain HTTP: nginx in front adds TLS.
                Endpoint.announce(
                    service: "website",
                    host: host,
                    port: channel.localAddress?.port ?? 0,
                    to: endpointFile,
                    logger: logger,
                    scheme: "http"
                )
            },
            logger: logger
        )
    }
}
