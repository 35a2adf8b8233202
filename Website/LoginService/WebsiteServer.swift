import Crypto
public import Foundation
import Hummingbird
public import Logging
import NIOCore
public import ServiceSupport
public import WorldFile

/// The login website: HTML pages and a JSON API for every world website, on loopback HTTP behind
/// nginx (which terminates TLS with each host's certificate and passes the Host on).
public enum WebsiteServer {
    public struct Configuration: DaemonConfigured, Sendable {
        /// Where it listens and keeps website.sqlite, endpoint.json and admin.sock; its `world`
        /// is the world file (the website reads its sites and accounts, not a built world).
        public var daemon: DaemonConfiguration
        /// The world file's content.
        public var world: World
        public var hasher: PasswordHasher

        public init(daemon: DaemonConfiguration, world: World, hasher: PasswordHasher = PasswordHasher()) {
            self.daemon = daemon
            self.world = world
            self.hasher = hasher
        }

        /// The operator's socket (``adminApplication(_:store:logger:)``).
        public var adminSocket: URL { daemon.state.appending(path: WebsiteServer.adminSocketName) }
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
        // Plain HTTP: nginx in front adds TLS.
        return try configuration.daemon.application("website", router: router, tls: nil, logger: logger)
    }
}
