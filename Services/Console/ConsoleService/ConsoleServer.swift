public import Foundation
public import Hummingbird
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import ServiceSupport
import WorldFile
import WorldGraph

/// The console: the lab's pages for a browser on this machine (docs/console.md), on plain HTTP
/// on loopback only, behind ``ConsoleAccess``.
public enum ConsoleServer {
    /// Where the console reads its world, keeps its files and listens.
    ///
    /// Keys (flags, then the environment, then the defaults; only `main` reads them):
    /// `--world` / `CONSOLE_WORLD`, `--state` / `CONSOLE_STATE`, `--port` / `CONSOLE_PORT`,
    /// `--url-file` / `CONSOLE_URL_FILE`.
    public struct Configuration: Sendable {
        /// The only address the console binds: it is for whoever started the lab, on this machine.
        public static let host = "127.0.0.1"
        /// The port without `--port`: 7720.
        public static let defaultPort = 7720

        /// The world file the lab was built from (never a daemon's store).
        public var world: URL
        /// The console's folder: `endpoint.json`.
        public var state: URL
        /// The port; 0 picks a free one (written to the endpoint file and the URL).
        public var port: Int
        /// Where the URL with its token is written, readable by its owner only.
        public var urlFile: URL
        /// keychaind's URL, whose decisions the Decisions page follows; nil for none (the page
        /// says the feed is empty).
        public var keychaind: String?
        /// associationd's URL, whose associations the Associations page shows; nil for none.
        public var associationd: String?
        /// The built world folder: the console's operator identity for the daemons, and the web
        /// root it trusts. Needed with `keychaind` or `associationd`.
        public var built: URL?

        /// A configuration; the URL file is `STATE/console.url` unless given.
        public init(
            world: URL,
            state: URL,
            port: Int = Self.defaultPort,
            urlFile: URL? = nil,
            keychaind: String? = nil,
            associationd: String? = nil,
            built: URL? = nil
        ) {
            self.world = world
            self.state = state
            self.port = port
            self.urlFile = urlFile ?? state.appending(path: "console.url")
            self.keychaind = keychaind
            self.associationd = associationd
            self.built = built
        }

        /// `STATE/endpoint.json`, as every daemon's.
        public var endpointFile: URL { state.appending(path: "endpoint.json") }
    }

    /// Reads the world, draws a fresh token and serves the pages until SIGTERM or SIGINT, following
    /// keychaind's decisions when it is given.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let world = try World.load(contentsOf: configuration.world)
        let pages = ConsolePages(WorldGraph(world), devices: world.devices)
        let feed = DecisionFeed()
        var services: [any Service] = []
        var tls: TLSConfiguration? = nil
        if configuration.keychaind != nil || configuration.associationd != nil {
            guard let built = configuration.built else { throw ConsoleFailure("give the built world folder (--built DIR) with the daemons' URLs") }
            tls = try TLSIdentities.systemServiceClient(world: built, service: "console")
        }
        let reads = DaemonReads(keychaind: configuration.keychaind, associationd: configuration.associationd, tls: tls)
        if let keychaind = configuration.keychaind, let tls {
            let follower = DecisionFollower(keychaind: keychaind, tls: tls, feed: feed, logger: logger)
            services.append(
                CancellableWork {
                    await follower.run()
                    await feed.close()
                }
            )
        }
        var generator = SystemRandomNumberGenerator()
        let access = ConsoleAccess.generate(using: &generator)
        // A URL file left by an earlier run names a token that no longer opens anything.
        try? FileManager.default.removeItem(at: configuration.urlFile)
        try FileManager.default.createDirectory(at: configuration.urlFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        // The application first: graceful shutdown stops the follower first, which closes the
        // feed, so every stream ends and the server can stop.
        let application = application(configuration, pages: pages, access: access, feed: feed, reads: reads, logger: logger)
        try await DaemonLifecycle.run([application] + services, logger: logger, finally: { await reads.shutdown() })
    }

    /// A configuration the console cannot run with.
    public struct ConsoleFailure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The application: once it listens, it writes the URL file, then its endpoint file (so that
    /// whoever waits for the endpoint finds the URL).
    public static func application(
        _ configuration: Configuration,
        pages: ConsolePages,
        access: ConsoleAccess,
        feed: DecisionFeed = DecisionFeed(),
        reads: DaemonReads = .none,
        logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: router(pages: pages, access: access, feed: feed, reads: reads),
            configuration: .init(address: .hostname(Configuration.host, port: configuration.port), serverName: "console"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                do {
                    try ConsoleURLFile.write(access.url(host: Configuration.host, port: port), to: configuration.urlFile)
                } catch {
                    // Without it nobody can open the console: say so, and announce nothing.
                    logger.error("cannot write the console's URL file", metadata: ["file": "\(configuration.urlFile.path)", "error": "\(error)"])
                    return
                }
                Endpoint.announce(
                    service: "console",
                    host: Configuration.host,
                    port: port,
                    to: configuration.endpointFile,
                    logger: logger,
                    scheme: "http"
                )
            },
            logger: logger
        )
    }

    /// The routes, every one behind the headers and the access check (added first: a route takes
    /// the middleware added before it).
    public static func router(
        pages: ConsolePages,
        access: ConsoleAccess,
        feed: DecisionFeed = DecisionFeed(),
        reads: DaemonReads = .none
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ConsoleHeadersMiddleware())
        router.add(middleware: ConsoleAccessMiddleware(access: access))
        router.get("/") { _, _ in HTML(pages.worldHTML) }
        router.get("/overlap") { _, _ in HTML(pages.overlapHTML) }
        router.get("/overlap.svg") { _, _ in ConsoleResponses.ok(pages.overlapSVG, type: "image/svg+xml") }
        router.get("/devices") { _, _ in HTML(pages.devicesHTML) }
        router.get("/devices/:name") { _, context in
            let name = try context.parameters.require("name")
            guard let page = await pages.deviceHTML(name, reads: reads) else { throw HTTPError(.notFound, message: "no device \(name) in the world") }
            return HTML(page)
        }
        router.get("/associations") { request, _ in
            let value = { (key: String) in request.uri.queryParameters.get(key).map { String($0) } ?? "" }
            return HTML(await pages.associationsHTML(device: value("device"), state: value("state"), reads: reads))
        }
        router.get("/decisions") { request, _ in
            let (filter, given, query) = DecisionQuery.read(request.uri.queryParameters, rows: pages.rows)
            return HTML(await pages.decisionsHTML(feed: feed, filter: filter, given: given, query: query))
        }
        router.get("/events") { request, _ in
            let parameters = request.uri.queryParameters
            let (filter, _, _) = DecisionQuery.read(parameters, rows: pages.rows)
            let after = DecisionStream.position(
                lastEventID: request.headers[DecisionQuery.lastEventID],
                after: parameters.get("after").map { String($0) }
            )
            return DecisionStream(feed: feed, filter: filter, after: after, rows: pages.rows).response
        }
        router.get("/console.css") { _, _ in ConsoleResponses.ok(ConsolePages.stylesheet, type: "text/css; charset=utf-8") }
        router.get("/console.js") { _, _ in ConsoleResponses.ok(ConsolePages.script, type: "text/javascript; charset=utf-8") }
        return router
    }
}
