import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
public import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
public import ServiceSupport
import SiteAssociation
import SiteAssociationFetch

/// The Apple-like CDN: `GET /a/v1/DOMAIN` answers what Apple's `app-site-association.cdn-apple.com`
/// answers iOS 14+ devices (spec associations.md b.3). Public, like Apple's: no client certificate.
public enum CDNServer {
    public struct Configuration: Sendable, DaemonConfigured {
        /// The built world (the CDN's TLS identity and the web roots origins must chain to), the
        /// folder of endpoint.json, and where the CDN listens.
        public var daemon: DaemonConfiguration
        /// Origins reached at another address: host → (address, port), as the lab's nginx.
        public var resolve: [String: (address: String, port: Int?)]
        /// How long a file is cached.
        public var maxAge: Int

        public init(
            _ daemon: DaemonConfiguration,
            resolve: [String: (address: String, port: Int?)] = [:],
            maxAge: Int = CDNAnswer.successMaxAge
        ) {
            self.daemon = daemon
            self.resolve = resolve
            self.maxAge = maxAge
        }
    }

    /// Runs the CDN until SIGTERM or SIGINT, then closes its HTTP client.
    public static func run(_ configuration: Configuration, logger: Logger) async throws {
        let fetcher = SiteFetcher(
            trustRoots: try TLSIdentities.webRoots(world: configuration.world),
            resolve: configuration.resolve,
            userAgent: "AASA-Bot/1.0.0"
        )
        let app: any Service
        do {
            app = try application(configuration, fetcher: fetcher, logger: logger)
        } catch {
            await fetcher.shutdown()
            throw error
        }
        try await DaemonLifecycle.run([app], logger: logger, finally: { await fetcher.shutdown() })
    }

    /// The application, fetching sites with `fetcher`.
    static func application(_ configuration: Configuration, fetcher: SiteFetcher, logger: Logger) throws -> some ApplicationProtocol {
        let maxAge = configuration.maxAge
        let cache = CDNCache { authority in
            CDNAnswer.from(await fetcher.fetchFile(SiteFetcher.locations(for: authority)), successMaxAge: maxAge)
        }
        let router = Router()
        router.get("\(AppleCDNPath.prefix):domain") { _, context -> Response in
            let authority = (context.parameters.get("domain") ?? "").lowercased()
            guard Self.isAuthority(authority) else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "not a domain: \(authority)\n")))
            }
            let (answer, age) = await cache.answer(for: authority)
            context.logger.info("cdn", metadata: ["domain": "\(authority)", "status": "\(answer.status)", "age": "\(age)"])
            var headers = HTTPFields()
            for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) {
                if let field = HTTPField.Name(name) { headers[field] = value }
            }
            headers[.age] = "\(age)"
            return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        let tls = try TLSIdentities.publicServer(world: configuration.world, service: "cdn")
        return try configuration.daemon.application("cdn", router: router, tls: tls, logger: logger)
    }

    /// A host name, optionally with a port.
    static func isAuthority(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let host = parts.first, !host.isEmpty, host.count <= 253 else { return false }
        if parts.count == 2, Int(parts[1]).map({ (1...65535).contains($0) }) != true { return false }
        return host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }
}
