import AsyncHTTPClient
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import NIOCore
import NIOHTTP1
import NIOSSL

/// Calls keychaind directly as a device does: SecItem calls on the call channel, awaited by
/// tasks; registrations (awaited) and the health check (blocking a thread) over HTTP.
final class DirectClient: Sendable {
    private let client: HTTPClient
    private let calls: KeychainCallClient
    private let base: String

    init(base: String, calls: (host: String, port: Int), tls: TLSConfiguration) throws {
        self.calls = try KeychainCallClient(host: calls.host, port: calls.port, tls: tls)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.base = base
    }

    func shutdown() async throws {
        await calls.shutdown()
        try await client.shutdown()
    }

    func send<Body: Encodable, Answer: Decodable>(_ method: HTTPMethod, _ path: String, _ body: Body, as: Answer.Type) async throws -> Answer {
        var request = try HTTPClient.Request(url: base + path, method: method)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(try JSONEncoder().encode(body))
        let response = try await client.execute(request: request).get()
        guard response.status == .ok, let body = response.body else {
            throw BenchFailure("keychaind answered \(response.status) to \(path)")
        }
        return try JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
    }

    func get(_ path: String) throws -> Int {
        let response = try client.execute(request: try HTTPClient.Request(url: base + path, method: .GET)).wait()
        return Int(response.status.code)
    }

    /// A call for an app keychaind does not know, refused before the engine: the channel alone.
    func refusedCall() async throws {
        guard case .problem = try await calls.call(.copyMatching, KeychainAPI.CallRequest(app: "-", query: [:])) else {
            throw BenchFailure("keychaind answered a call for an unknown app")
        }
    }

    /// A call's whole answer; keychaind's refusals are thrown.
    func answer(_ call: SecItemCall, app: String, _ query: [String: SecValue]) async throws -> KeychainAPI.CallResponse {
        switch try await calls.call(call, KeychainAPI.CallRequest(app: app, query: query)) {
        case .answer(let answer): return answer
        case .problem(let problem): throw BenchFailure("keychaind refused the call: \(problem.error): \(problem.message)")
        }
    }

    func call(_ call: SecItemCall, app: String, _ query: [String: SecValue]) async throws -> Int32 {
        switch try await calls.call(call, KeychainAPI.CallRequest(app: app, query: query)) {
        case .answer(let answer): return answer.status
        case .problem(let problem): throw BenchFailure("keychaind refused the call: \(problem.error): \(problem.message)")
        }
    }
}
