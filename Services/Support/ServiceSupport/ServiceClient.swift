import AsyncHTTPClient
public import Foundation
import NIOCore
public import NIOHTTP1
public import NIOSSL
import Synchronization

/// A connection to a service (keychaind, associationd, webcredentiald, cloudd) with mutual TLS: a
/// device's or a system service's certificate. JSON in, JSON out.
///
/// Given several base URLs (replicas of one stateless service, as cloudd's are), the client uses
/// one until it fails below HTTP, then moves to the next for good. A request that never reached
/// the failed replica (no connection) goes to the next at once, as does a read (GET) whatever
/// broke; a write whose connection broke after it may have been sent is not repeated: its error
/// reaches the caller, whose own retry goes to the next replica (docs/scale.md).
public final class ServiceClient: Sendable {
    /// The replicas' base URLs, in the order they are tried.
    public let baseURLs: [String]
    private let client: HTTPClient
    private let current = Atomic<Int>(0)

    /// How long an idle connection to a service is kept for the next call.
    static let idleConnectionLifetime = TimeAmount.minutes(5)

    /// The base URL calls go to now.
    public var baseURL: String { baseURLs[current.load(ordering: .relaxed)] }

    public convenience init(baseURL: String, tls: TLSConfiguration) {
        self.init(baseURLs: [baseURL], tls: tls)
    }

    /// A client of the replicas at `baseURLs` (at least one), starting with the first. With
    /// `failFast`, or several replicas, a refused connection fails its requests at once; else the
    /// client keeps trying to connect (with a growing pause) until the connect timeout: a caller
    /// with retries of its own (a device's sync engine) wants the first.
    public init(baseURLs: [String], tls: TLSConfiguration, failFast: Bool = false) {
        precondition(!baseURLs.isEmpty, "a service client needs a base URL")
        self.baseURLs = baseURLs
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        // A call's own deadline (``defaultDeadline``, or longer for a long-poll) bounds it; the
        // read timeout only catches a server gone silent mid-answer, and must outlast the
        // longest wait a server holds (cloudd's: 60 s).
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(70))
        // An idle connection is kept for `idleConnectionLifetime` (AsyncHTTPClient's default is
        // a minute): a new one costs a full TLS handshake on both sides, since swift-nio-ssl's
        // client resumes no session, and a device that calls a service every minute or two would
        // otherwise pay one for nearly every call (docs/scale.md).
        configuration.connectionPool = .init(idleTimeout: Self.idleConnectionLifetime)
        // With replicas to move to, a refused connection fails its requests at once rather than
        // retrying the dead replica until the connect timeout; so does a fail-fast client, whose
        // next request connects afresh rather than waiting out the pool's pause.
        configuration.connectionPool.retryConnectionEstablishment = baseURLs.count == 1 && !failFast
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// A client of a service's Unix socket, plain HTTP (the website's operator socket): the
    /// socket's permissions are its lock.
    public convenience init(unixSocket: URL) {
        let socket = unixSocket.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? unixSocket.path
        self.init(baseURL: "http+unix://\(socket)", tls: .makeClientConfiguration())
    }

    /// Closes the client's connections; done in a task of its own so that it completes even when
    /// the caller was cancelled (an HTTP client must not be dropped unclosed).
    public func shutdown() async {
        let client = self.client
        await Task { try? await client.shutdown() }.value
    }

    /// A non-2xx answer.
    public struct Failure: Error, CustomStringConvertible {
        public let status: Int
        public let body: String
        public let service: String
        public var description: String { "\(service) answered \(status): \(body)" }
    }

    /// Sends `body` as JSON and decodes the answer; a non-2xx answer is a ``Failure``.
    public func send<Body: Encodable, Answer: Decodable>(
        _ method: HTTPMethod,
        _ path: String,
        _ body: Body,
        as: Answer.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> Answer {
        let bytes = ByteBuffer(bytes: try JSONEncoder().encode(body))
        return try await exchange(
            path,
            repeatable: method == .GET || method == .HEAD,
            as: Answer.self,
            decoder: decoder,
            deadline: Self.defaultDeadline
        ) {
            url in
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(bytes)
            return request
        }
    }

    /// How long a call may take, unless it says otherwise.
    public static let defaultDeadline: Duration = .seconds(30)

    /// GETs `path` (with its query) and decodes the answer; a non-2xx answer is a ``Failure``.
    /// `deadline` bounds the call (a long-poll gives its wait and a margin).
    public func get<Answer: Decodable>(
        _ path: String,
        as: Answer.Type,
        decoder: JSONDecoder = JSONDecoder(),
        deadline: Duration = defaultDeadline
    ) async throws -> Answer {
        try await exchange(path, repeatable: true, as: Answer.self, decoder: decoder, deadline: deadline) { HTTPClientRequest(url: $0) }
    }

    /// Sends the request `make` builds for a replica's URL, moving to the next replica as the
    /// type's documentation says.
    private func exchange<Answer: Decodable>(
        _ path: String,
        repeatable: Bool,
        as: Answer.Type,
        decoder: JSONDecoder,
        deadline: Duration,
        make: (String) -> HTTPClientRequest
    ) async throws -> Answer {
        var tried = 0
        while true {
            let index = current.load(ordering: .relaxed)
            do {
                return try await exchange(
                    make(baseURLs[index] + path),
                    service: baseURLs[index],
                    as: Answer.self,
                    decoder: decoder,
                    deadline: deadline
                )
            } catch {
                guard baseURLs.count > 1, !Task.isCancelled, let failure = TransportFailure(error) else { throw error }
                // Another call may have moved on already; only the first to see it fail moves.
                _ = current.compareExchange(expected: index, desired: (index + 1) % baseURLs.count, ordering: .relaxed)
                tried += 1
                guard tried < baseURLs.count, repeatable || failure == .notDelivered else { throw error }
            }
        }
    }

    private func exchange<Answer: Decodable>(
        _ request: HTTPClientRequest,
        service: String,
        as: Answer.Type,
        decoder: JSONDecoder,
        deadline: Duration
    ) async throws -> Answer {
        let response = try await client.execute(request, timeout: .nanoseconds(deadline.components.seconds * 1_000_000_000))
        let bytes = try await response.body.collect(upTo: 256 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(status: Int(response.status.code), body: String(buffer: bytes), service: service)
        }
        return try decoder.decode(Answer.self, from: Data(bytes.readableBytesView))
    }
}
