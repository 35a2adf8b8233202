import AsyncHTTPClient
public import Foundation
import NIOCore
public import NIOHTTP1
public import NIOSSL

/// A connection to a service (keychaind, associationd, webcredentiald) with mutual TLS: a device's
/// or a system service's certificate. JSON in, JSON out.
public final class ServiceClient: Sendable {
    public let baseURL: String
    private let client: HTTPClient

    public init(baseURL: String, tls: TLSConfiguration) {
        self.baseURL = baseURL
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
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
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        return try await exchange(request, as: Answer.self, decoder: decoder)
    }

    /// GETs `path` (with its query) and decodes the answer; a non-2xx answer is a ``Failure``.
    public func get<Answer: Decodable>(_ path: String, as: Answer.Type, decoder: JSONDecoder = JSONDecoder()) async throws -> Answer {
        try await exchange(HTTPClientRequest(url: baseURL + path), as: Answer.self, decoder: decoder)
    }

    private func exchange<Answer: Decodable>(_ request: HTTPClientRequest, as: Answer.Type, decoder: JSONDecoder) async throws -> Answer {
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 256 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(status: Int(response.status.code), body: String(buffer: bytes), service: baseURL)
        }
        return try decoder.decode(Answer.self, from: Data(bytes.readableBytesView))
    }
}
