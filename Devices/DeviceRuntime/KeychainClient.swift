import AsyncHTTPClient
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainTypes
import NIOCore
import NIOHTTP1
import NIOSSL

/// The device's connection to a service (keychaind, associationd): mutual TLS with the device's
/// certificate.
final class KeychainClient: Sendable {
    let baseURL: String
    private let client: HTTPClient

    init(baseURL: String, tls: TLSConfiguration) {
        self.baseURL = baseURL
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections; done in a task of its own so that it completes even when
    /// the caller was cancelled (an HTTP client must not be dropped unclosed).
    func shutdown() async {
        let client = self.client
        await Task { try? await client.shutdown() }.value
    }

    struct Failure: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "keychaind answered \(status): \(body)" }
    }

    /// Sends `body` as JSON and decodes the answer; a non-2xx answer is a ``Failure``.
    func send<Body: Encodable, Answer: Decodable>(
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
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 256 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(status: Int(response.status.code), body: String(buffer: bytes))
        }
        return try decoder.decode(Answer.self, from: Data(bytes.readableBytesView))
    }
}
