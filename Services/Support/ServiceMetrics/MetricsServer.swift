public import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
public import ServiceLifecycle

/// A daemon's Prometheus metrics: `GET /metrics` in the text exposition format, over plain HTTP on
/// a loopback port by default (a scraper on the same machine reads it; nothing secret is in it).
/// Starting it bootstraps swift-metrics with a Prometheus registry, so the daemon records through
/// swift-metrics' `Counter`, `Timer` and `Gauge` wherever it decides something.
public struct MetricsServer: Service {
    private let server: any Channel
    private let host: String

    /// Binds `address` (port 0 picks a free port). `refresh` runs before every scrape, to set gauges
    /// that are cheaper to read than to keep (items per keychain).
    public static func start(
        at address: MetricsAddress,
        logger: Logger,
        refresh: @escaping @Sendable () async -> Void = {}
    ) async throws -> MetricsServer {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        MetricsSystem.bootstrap(factory)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(ScrapeHandler(registry: registry, refresh: refresh))
                }
            }
            .bind(host: address.host, port: address.port)
            .get()
        let metrics = MetricsServer(server: server, host: address.host)
        logger.info("metrics listening", metadata: ["metrics.url": "\(metrics.url)"])
        return metrics
    }

    /// From 50 µs to 30 s: keychain lookups take a fraction of a millisecond, association fetches
    /// seconds, and a call to a cloud store that hangs up to its round-trip limit (10 s) or its
    /// longest wait for a thread (20 s).
    static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
    ]

    /// The bound port.
    public var port: Int { server.localAddress?.port ?? 0 }

    /// `http://HOST:PORT/metrics`, for the endpoint file.
    public var url: String { "http://\(host):\(port)/metrics" }

    /// Stops listening (for daemons that do not run it in a service group).
    public func close() {
        server.close(promise: nil)
    }

    /// Serves until graceful shutdown.
    public func run() async throws {
        try? await gracefulShutdown()
        try await server.close()
    }
}

/// Answers `GET /metrics` with the registry's text; anything else is 404 or 405.
///
/// Unchecked: NIO calls a handler on its channel's event loop only, so `head` is touched by one
/// thread; the refresh hops back to that loop before it writes.
private final class ScrapeHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private let refresh: @Sendable () async -> Void
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry, refresh: @escaping @Sendable () async -> Void) {
        self.registry = registry
        self.refresh = refresh
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let path = head.uri.split(separator: "?").first.map(String.init) ?? head.uri
            guard path == "/metrics" else { return respond(context, head, .notFound, "not found: scrape /metrics\n") }
            guard head.method == .GET || head.method == .HEAD else { return respond(context, head, .methodNotAllowed, "use GET\n") }
            let registry = registry
            let refresh = refresh
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            Task {
                await refresh()
                let text = registry.emitToString()
                bound.eventLoop.execute { bound.value.0.respond(bound.value.1, head, .ok, text) }
            }
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, _ text: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(text.utf8.count)")
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil) }
        if head.isKeepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let done = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
            let channel = context.channel
            done.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
