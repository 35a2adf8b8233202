import KeychainAPI
import KeychainCallChannel
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import ServiceSupport
import Synchronization

/// keychaind's call channel: devices keep a few mutual-TLS connections open and send SecItem
/// calls on them as binary frames, many at once, each answered by id. It makes the same calls as
/// `POST /v1/items/{call}` (``KeychainCalls``), without an HTTP request and a JSON document per
/// call; everything else stays on the HTTP API.
struct CallChannelServer: Service {
    private let server: NIOAsyncChannel<NIOAsyncChannel<[UInt8], ByteBuffer>, Never>
    private let calls: KeychainCalls
    private let logger: Logger
    /// Calls one connection may have in flight; more are refused at once with `tooManyCalls`.
    static let maximumInFlight = 1024

    /// Binds `host:port` (0 picks a free port) with keychaind's TLS identity; a client must
    /// present a certificate chaining to the world's root.
    static func bind(host: String, port: Int, tls: TLSConfiguration, calls: KeychainCalls, logger: Logger) async throws -> CallChannelServer {
        let context = try NIOSSLContext(configuration: tls)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CallFrameDecoder()))
                    return try NIOAsyncChannel<[UInt8], ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return CallChannelServer(server: server, calls: calls, logger: logger)
    }

    /// The bound port.
    var port: Int { server.channel.localAddress?.port ?? 0 }

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections.cancelOnGracefulShutdown() {
                    group.addTask { await serve(connection) }
                }
            }
        }
    }

    /// Answers one connection's calls until it closes; a malformed frame closes it.
    private func serve(_ connection: NIOAsyncChannel<[UInt8], ByteBuffer>) async {
        let inFlight = InFlightCount()
        let batcher = AnswerBatcher()
        do {
            try await connection.executeThenClose { inbound, outbound in
                var device: DeviceIdentity?? = nil
                try await withThrowingDiscardingTaskGroup { group in
                    for try await bytes in inbound {
                        // The handshake is done once a frame arrives: the certificate is known.
                        if device == nil { device = .some(await DeviceIdentity.of(connection.channel)) }
                        let caller = device ?? nil
                        let (id, message) = CallMessage.decode(bytes)
                        guard let id else { throw WireError("a frame without an id") }
                        if !inFlight.enter(limit: Self.maximumInFlight) {
                            let refusal = KeychainAPI.Problem(error: "tooManyCalls", message: "more than \(Self.maximumInFlight) calls in flight")
                            try await outbound.write(CallFrame.buffer(AnswerMessage(id: id, body: .problem(refusal)).encoded()))
                            continue
                        }
                        group.addTask {
                            defer { inFlight.leave() }
                            let answer = await answer(id: id, message, device: caller)
                            try await batcher.send(CallFrame.buffer(answer.encoded()), on: outbound)
                        }
                    }
                }
            }
        } catch {
            logger.debug("a call channel connection ended", metadata: ["error": "\(error)"])
        }
    }

    private func answer(id: UInt32, _ message: Result<CallMessage, WireError>, device: DeviceIdentity?) async -> AnswerMessage {
        guard let device else {
            return AnswerMessage(
                id: id,
                body: .problem(.init(error: "notADevice", message: "this service answers devices only: present a device certificate"))
            )
        }
        switch message {
        case .failure(let error):
            return AnswerMessage(id: id, body: .problem(.init(error: "badRequest", message: "the call cannot be read: \(error)")))
        case .success(let call):
            switch await calls.answer(device: device.udid, call: call.call, call.request, logger: logger) {
            case .success(let response): return AnswerMessage(id: id, body: .answer(response))
            case .failure(let refusal): return AnswerMessage(id: id, body: .problem(refusal.problem))
            }
        }
    }
}

/// How many calls one connection has in flight.
private final class InFlightCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more call, unless `limit` are already in flight.
    func enter(limit: Int) -> Bool {
        if count.add(1, ordering: .relaxed).newValue <= limit { return true }
        count.subtract(1, ordering: .relaxed)
        return false
    }

    func leave() { count.subtract(1, ordering: .relaxed) }
}

/// Answers that finish at about the same time leave in one write: the first to finish waits for
/// the tasks already queued on its event loop to run, and takes every answer they add.
private final class AnswerBatcher: Sendable {
    private let pending = Mutex<ByteBuffer?>(nil)

    func send(_ frame: ByteBuffer, on outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let first = pending.withLock { pending -> Bool in
            guard pending != nil else {
                pending = frame
                return true
            }
            pending!.writeImmutableBuffer(frame)
            return false
        }
        guard first else { return }
        await Task.yield()
        guard
            let batch = pending.withLock({ pending in
                defer { pending = nil }
                return pending
            })
        else { return }
        try await outbound.write(batch)
    }
}
