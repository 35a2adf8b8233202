import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import ServiceSupport

/// keychaind's call channel: devices keep a few mutual-TLS connections open and send SecItem
/// calls on them as binary frames, many at once, each answered by id. It makes the same calls as
/// `POST /v1/items/{call}` (``KeychainCalls``), without an HTTP request and a JSON document per
/// call; everything else stays on the HTTP API.
struct CallChannelServer: Service {
    private let server: any Channel
    private let logger: Logger
    /// Calls one connection may have in flight; more are refused at once with `tooManyCalls`.
    static let maximumInFlight = 1024
    /// Answer bytes written but not yet taken by the device past which keychaind reads no more of
    /// the connection's calls, until the device catches up.
    static let readPauseBytes = 8 << 20
    /// Answer bytes waiting for a device past which the connection is closed: a device that reads
    /// no answers holds keychaind's memory for nothing. Room for the largest answer and the pause.
    static let maximumWaitingBytes = CallFrame.maximumAnswerLength + readPauseBytes
    /// Calls of one connection being worked on at once; the rest of its calls in flight wait,
    /// and wait longer while its answers are not taken.
    static let maximumRunning = 32

    /// Binds `host:port` (0 picks a free port) with keychaind's TLS identity; a client must
    /// present a certificate chaining to the world's root.
    static func bind(host: String, port: Int, tls: TLSConfiguration, calls: KeychainCalls, logger: Logger) async throws -> CallChannelServer {
        let context = try NIOSSLContext(configuration: tls)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: Int32(DaemonConfiguration.listenBacklog))
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(CallFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(CallHandler(calls: calls, logger: logger))
                }
            }
            .bind(host: host, port: port)
            .get()
        return CallChannelServer(server: server, logger: logger)
    }

    /// The bound port.
    var port: Int { server.localAddress?.port ?? 0 }

    /// Serves until graceful shutdown, then stops accepting; open connections close with the process.
    func run() async throws {
        try? await gracefulShutdown()
        try await server.close()
    }
}

/// One connection: each call is made in a task of its own, so calls overlap; each answer is
/// written when its call is done, and the answers of one turn of the event loop share one flush.
/// Answers the device has not taken yet count against the connection: past
/// ``CallChannelServer/readPauseBytes`` its calls are not read, past
/// ``CallChannelServer/maximumWaitingBytes`` it is closed (backpressure, issue 24 point 6).
private final class CallHandler: ChannelDuplexHandler {
    typealias InboundIn = [UInt8]
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let calls: KeychainCalls
    private let logger: Logger
    // Only touched on the channel's event loop.
    private var device: DeviceIdentity?? = nil
    private var inFlight = 0
    /// Calls read and not yet started, and the number being worked on.
    private var queued: [(id: UInt32, message: Result<CallMessage, WireError>, device: DeviceIdentity?)] = []
    private var queueStart = 0
    private var running = 0
    private let flusher = OneFlushPerTurn()
    /// Answer bytes written and not yet sent; whether a read was held back because of them.
    private var waitingBytes = 0
    private var heldRead = false
    private var closing = false

    init(calls: KeychainCalls, logger: Logger) {
        self.calls = calls
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let (id, message) = CallMessage.decode(unwrapInboundIn(data))
        guard let id else {
            logger.debug("a call channel frame without an id: closing the connection")
            context.close(promise: nil)
            return
        }
        guard inFlight < CallChannelServer.maximumInFlight else {
            let refusal = KeychainAPI.Problem(.tooManyCalls, "more than \(CallChannelServer.maximumInFlight) calls in flight")
            send(AnswerMessage(id: id, body: .problem(refusal)), context: context)
            return
        }
        // The handshake is done once a frame arrives: the certificate is known.
        if device == nil { device = .some(Self.device(context)) }
        let caller = device ?? nil
        inFlight += 1
        queued.append((id, message, caller))
        startQueued(context)
    }

    /// Starts waiting calls while fewer than ``CallChannelServer/maximumRunning`` run and the
    /// device takes its answers.
    private func startQueued(_ context: ChannelHandlerContext) {
        while !closing, running < CallChannelServer.maximumRunning, waitingBytes < CallChannelServer.readPauseBytes, queueStart < queued.count {
            let next = queued[queueStart]
            queueStart += 1
            running += 1
            Self.start(
                id: next.id,
                next.message,
                device: next.device,
                calls: calls,
                logger: logger,
                NIOLoopBound((self, context), eventLoop: context.eventLoop)
            )
        }
        if queueStart == queued.count {
            queued.removeAll(keepingCapacity: true)
            queueStart = 0
        }
    }

    /// A task per call (structured concurrency cannot reach into a channel handler): it runs on
    /// the channel's event loop, makes the call, and hands the answer back to the handler.
    private static func start(
        id: UInt32,
        _ message: Result<CallMessage, WireError>,
        device: DeviceIdentity?,
        calls: KeychainCalls,
        logger: Logger,
        _ bound: NIOLoopBound<(CallHandler, ChannelHandlerContext)>
    ) {
        Task {
            let answer = await answer(id: id, message, device: device, calls: calls, logger: logger)
            bound.eventLoop.execute { deliver(answer, bound) }
        }
    }

    /// Reads go on only while the device takes its answers.
    func read(context: ChannelHandlerContext) {
        guard waitingBytes < CallChannelServer.readPauseBytes else {
            heldRead = true
            return
        }
        context.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Answers a device never took may have grown the heap: give the pages back.
        if waitingBytes > 0 { MemoryRelease.trim() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("a call channel connection failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    private static func deliver(_ answer: AnswerMessage, _ bound: NIOLoopBound<(CallHandler, ChannelHandlerContext)>) {
        let (handler, context) = bound.value
        handler.inFlight -= 1
        handler.running -= 1
        handler.send(answer, context: context)
        handler.startQueued(context)
    }

    private func send(_ answer: AnswerMessage, context: ChannelHandlerContext) {
        var encoded = answer.encoded()
        if encoded.count > CallFrame.maximumAnswerLength {
            // Sent, it would close the device's connection and fail every app's calls on it.
            logger.notice("an answer over the call channel's limit was replaced", metadata: ["bytes": "\(encoded.count)"])
            let reason = "the answer is \(encoded.count) bytes, more than the \(CallFrame.maximumAnswerLength) a call may return; ask for fewer items"
            encoded = AnswerMessage(id: answer.id, body: .answer(.init(status: .allocate, result: nil, reason: reason))).encoded()
        }
        guard !closing else { return }
        let size = encoded.count + 4
        guard waitingBytes + size <= CallChannelServer.maximumWaitingBytes else {
            logger.notice(
                "closing a call channel connection whose device takes no answers",
                metadata: ["waiting.bytes": "\(waitingBytes)", "calls.in_flight": "\(inFlight)"]
            )
            closing = true
            queued.removeAll()
            queueStart = 0
            context.close(promise: nil)
            return
        }
        waitingBytes += size
        let promise = context.eventLoop.makePromise(of: Void.self)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { _ in
            let (handler, context) = bound.value
            handler.waitingBytes -= size
            handler.startQueued(context)
            if handler.heldRead, handler.waitingBytes < CallChannelServer.readPauseBytes {
                handler.heldRead = false
                context.read()
            }
        }
        context.write(wrapOutboundOut(CallFrame.buffer(encoded, allocator: context.channel.allocator)), promise: promise)
        flusher.flush(context)
    }

    /// The device whose certificate the connection presented; nil for any other certificate.
    private static func device(_ context: ChannelHandlerContext) -> DeviceIdentity? {
        guard let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self),
            let certificate = handler.peerCertificate, let der = try? certificate.toDERBytes()
        else { return nil }
        return DeviceIdentity(certificateDER: Data(der))
    }

    private static func answer(
        id: UInt32,
        _ message: Result<CallMessage, WireError>,
        device: DeviceIdentity?,
        calls: KeychainCalls,
        logger: Logger
    ) async -> AnswerMessage {
        guard let device else {
            return AnswerMessage(
                id: id,
                body: .problem(.init(.notADevice, "this service answers devices only: present a device certificate"))
            )
        }
        switch message {
        case .failure(let error):
            return AnswerMessage(id: id, body: .problem(.init(.badRequest, "the call cannot be read: \(error)")))
        case .success(let call):
            switch await calls.answer(device: device.udid, call: call.call, call.request, logger: logger) {
            case .success(let response): return AnswerMessage(id: id, body: .answer(response))
            case .failure(let refusal): return AnswerMessage(id: id, body: .problem(refusal.problem))
            }
        }
    }
}
