import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
public import NIOSSL
public import SiteAssociation

/// Fetches association files as a device does: HTTPS only, the world's (or the system's) roots,
/// no redirects followed, bodies decoded and cut one byte past the 128 KB limit.
public final class SiteFetcher: Sendable {
    private let client: HTTPClient
    private let ports: [String: Int]
    private let userAgent: String
    private let timeout: Duration
    private let maximumSize: Int

    /// - Parameters:
    ///   - trustRoots: PEM roots the server must chain to; nil for the system's.
    ///   - resolve: host → address (and port) to connect to instead of asking DNS, as curl's --resolve.
    ///   - timeout: how long a request may take.
    ///   - maximumSize: the largest body read (an association file's 128 KB, unless another
    ///     format's limit is given: an asset-links file's 1 MiB).
    public init(
        trustRoots: [NIOSSLCertificate]?,
        resolve: [String: (address: String, port: Int?)] = [:],
        timeout: Duration = .seconds(10),
        userAgent: String = "com.apple.swcd (unknown version) CFNetwork/1494.0.7 Darwin/23.4.0",
        maximumSize: Int = AssociationFile.maximumSize
    ) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
        // A request given up on (a body past the limit) closes its connection, and TLS would wait
        // up to 5 s for the server's close_notify while draining whatever it still sends: an
        // endless body then flowed on, a gigabyte at a time, after the verdict was in.
        tls.shutdownTimeout = .milliseconds(100)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        let limit = TimeAmount.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        configuration.timeout = .init(connect: limit, read: limit)
        // The 128 KB rule holds for the decoded file, and decoding stops there: a gzip bomb costs
        // no more memory than the largest file a device accepts.
        configuration.decompression = .enabled(limit: .size(maximumSize + 1))
        configuration.dnsOverride = resolve.mapValues(\.address)
        // A connection that fails (an untrusted, expired or misnamed certificate, a port that
        // speaks no TLS, a refused connection) is a verdict at once, as on a device: retried,
        // it would only be reported when the whole timeout had passed.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        ports = resolve.compactMapValues(\.port)
        self.userAgent = userAgent
        self.timeout = timeout
        self.maximumSize = maximumSize
    }

    /// Closes the client; call once, when done.
    public func shutdown() async {
        let client = self.client
        await Task { try? await client.shutdown() }.value
    }

    /// The URLs a device tries for `authority` (host or host:port), in order: `.well-known` then
    /// the root path; iOS 8 knew only the root path (spec associations.md b.1).
    public static func locations(for authority: String, rootOnly: Bool = false) -> [String] {
        let root = "https://\(authority)/apple-app-site-association"
        return rootOnly ? [root] : ["https://\(authority)/.well-known/apple-app-site-association", root]
    }

    /// Fetches the locations in order, stopping at the first that is not an HTTP refusal.
    public func fetchFile(_ locations: [String]) async -> [FetchAttempt] {
        var attempts: [FetchAttempt] = []
        for location in locations {
            let attempt = await fetch(location)
            attempts.append(attempt)
            if !SiteEvaluator.triesNextLocation(after: attempt) { break }
        }
        return attempts
    }

    /// One GET.
    public func fetch(_ url: String) async -> FetchAttempt {
        await fetchWithHeaders(url).attempt
    }

    /// One GET, and the answer's headers (lower-cased names) for callers that read more of them.
    public func fetchWithHeaders(_ url: String) async -> (attempt: FetchAttempt, headers: [String: String]) {
        var target = url
        if let parsed = URL(string: url), let host = parsed.host, parsed.port == nil, let port = ports[host] {
            target = url.replacingOccurrences(of: "://\(host)", with: "://\(host):\(port)")
        }
        var request = HTTPClientRequest(url: target)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "*/*")
        // The whole answer, body included, must arrive within the timeout: a server that trickles
        // its file a byte at a time never trips a read timeout, yet a device gives up on it.
        let deadline = ContinuousClock.now + timeout
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
            var body = Data()
            var truncated = false
            var warnings: [String] = []
            do {
                for try await chunk in response.body {
                    if ContinuousClock.now > deadline { return (FetchAttempt(url: url, outcome: .timeout), [:]) }
                    body.append(contentsOf: chunk.readableBytesView)
                    if body.count > maximumSize {
                        body = body.prefix(maximumSize + 1)
                        truncated = true
                        break
                    }
                }
            } catch NIOHTTPDecompression.DecompressionError.limit {
                // Decoded past the limit: judged as any file over 128 KB.
                truncated = true
            } catch let error as NIOSSLError where error == .uncleanShutdown && Self.endsAtClose(response.headers) {
                // A body without a length ends when the server closes; many servers close without
                // TLS's close_notify, and clients (CFNetwork, browsers) read the body to the close.
                warnings.append("the server closed the connection without TLS close_notify; the body was read to the close")
            } catch {
                let reason = "the connection failed while the body was read: \(error)"
                return (FetchAttempt(url: url, outcome: Self.isTimeout(error) ? .timeout : .unreachable(reason)), [:])
            }
            let attempt = FetchAttempt(
                url: url,
                outcome: .response(
                    status: Int(response.status.code),
                    contentType: response.headers.first(name: "Content-Type"),
                    location: response.headers.first(name: "Location"),
                    body: body,
                    truncated: truncated
                ),
                warnings: warnings
            )
            let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
            return (attempt, headers)
        } catch {
            return (FetchAttempt(url: url, outcome: Self.outcome(of: error)), [:])
        }
    }

    /// Whether the body's end is the connection's close: neither a length nor chunks.
    private static func endsAtClose(_ headers: HTTPHeaders) -> Bool {
        !headers.contains(name: "Content-Length") && !headers.contains(name: "Transfer-Encoding")
    }

    private static func isTimeout(_ error: any Error) -> Bool {
        guard let error = error as? HTTPClientError else { return false }
        return error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout
    }

    /// What an error before the answer's head means: a timeout, a TLS handshake that failed
    /// (the certificate is not good for the host), or no connection.
    private static func outcome(of error: any Error) -> FetchAttempt.Outcome {
        if isTimeout(error) { return .timeout }
        let text = String(describing: error)
        if error is NIOSSLError || error is BoringSSLError || text.contains("handshake") || text.contains("certificate") || text.contains("SSL") {
            return .untrustedServer(text)
        }
        return .unreachable(text)
    }
}
