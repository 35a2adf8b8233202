import Decisions
import Foundation
public import Logging
public import NIOSSL
import ServiceSupport

/// Follows keychaind's decisions into a ``DecisionFeed``: its latest 1,000 first, then each new one
/// as keychaind makes it, through its operator route `GET /v1/admin/audit?after=N&wait=25`, which
/// answers as soon as there is something after `N` (docs/operating.md). It reads the route, never
/// keychaind's files, with the console's own operator identity.
///
/// A failed read is tried again after a second, then two, up to five; a keychaind that restarted
/// (its latest number is below the one read) is read again from its latest 1,000.
public struct DecisionFollower: Sendable {
    /// keychaind's URL.
    public let keychaind: String
    /// The console's client identity, trusting the world's web root.
    public let tls: TLSConfiguration
    /// Where the decisions go.
    public let feed: DecisionFeed
    /// Where failures are said.
    public let logger: Logger

    /// How many decisions one read asks for: the feed's size.
    static let pageSize = DecisionFeed.capacity
    /// How long keychaind holds a read that finds nothing new.
    static let wait = 25

    /// A follower of `keychaind` into `feed`.
    public init(keychaind: String, tls: TLSConfiguration, feed: DecisionFeed, logger: Logger) {
        self.keychaind = keychaind
        self.tls = tls
        self.feed = feed
        self.logger = logger
    }

    /// Reads until cancelled.
    public func run() async {
        let client = ServiceClient(baseURL: keychaind, tls: tls)
        var after: Int64? = nil
        var failures = 0
        while !Task.isCancelled {
            do {
                let page = try await read(client, after: after)
                if let read = after, page.latest < read {
                    logger.notice("keychaind's decisions start again from 1: it restarted", metadata: ["latest": "\(page.latest)"])
                    after = nil
                    continue
                }
                await feed.append(page.entries, missed: page.dropped)
                after = page.next
                if failures > 0 { logger.info("reading keychaind's decisions again") }
                failures = 0
            } catch {
                if Task.isCancelled { break }
                failures += 1
                if failures == 1 { logger.warning("cannot read keychaind's decisions; trying again", metadata: ["error": "\(error)"]) }
                try? await Task.sleep(for: .seconds(min(failures, 5)))
            }
        }
        await client.shutdown()
    }

    /// One read: the latest page without `after`, else what follows it, waiting for it.
    private func read(_ client: ServiceClient, after: Int64?) async throws -> DecisionPage<RuleName> {
        let query = after.map { "after=\($0)&limit=\(Self.pageSize)&wait=\(Self.wait)" } ?? "limit=\(Self.pageSize)"
        return try await client.get(
            "/v1/admin/audit?\(query)",
            as: DecisionPage<RuleName>.self,
            decoder: Self.decoder,
            deadline: .seconds(Self.wait + 10)
        )
    }

    /// keychaind's audit answers' dates are ISO 8601.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
