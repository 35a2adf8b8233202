public import KeychainAPI
public import KeychainTypes
public import NIOCore
import NIOPosix
public import NIOSSL
import Synchronization

/// A device's (or a benchmark's) end of keychaind's call channel: a few long-lived mutual-TLS
/// connections on which any number of SecItem calls travel at once, each answered by id. A lost
/// connection fails the calls it carried and is opened again by the next call.
public final class KeychainCallClient: Sendable {
    private let host: String
    private let port: Int
    private let context: NIOSSLContext
    private let group: any EventLoopGroup
    // Guards the connections and the next id; held only to read or swap a slot, never across I/O.
    private let state: Mutex<State>

    private struct State {
        var slots: [Slot]
        var nextID: UInt32 = 0
        var generation = 0
        var isShutDown = false
    }

    /// One connection's state.
    private enum Slot {
        case idle
        case connecting(EventLoopFuture<any Channel>, generation: Int)
        case open(any Channel)
    }

    /// - Parameters:
    ///   - host, port: where keychaind's call channel listens (its endpoint file's `calls`).
    ///   - tls: the device's client identity and the world's roots (TLSIdentities.deviceClient).
    ///   - connections: how many connections the calls are spread over.
    public init(host: String, port: Int, tls: TLSConfiguration, connections: Int = 2) throws {
        self.host = host
        self.port = port
        context = try NIOSSLContext(configuration: tls)
        group = MultiThreadedEventLoopGroup.singleton
        state = Mutex(State(slots: Array(repeating: .idle, count: max(1, connections))))
    }

    /// A call longer than keychaind reads (``CallFrame/maximumLength``): not sent.
    public struct CallTooLong: Error, CustomStringConvertible {
        public let length: Int
        public var description: String { "the call is \(length) bytes, more than the \(CallFrame.maximumLength) keychaind reads" }
    }

    /// What went wrong on the way; keychaind's refusals are answers, not failures.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes one call and gives keychaind's answer.
    public func call(_ call: SecItemCall, _ request: KeychainAPI.CallRequest) async throws -> AnswerMessage.Body {
        try await callFuture(call, request).get()
    }

    /// Makes one call; the future completes on an event loop (a blocking caller may `wait()`).
    public func callFuture(_ call: SecItemCall, _ request: KeychainAPI.CallRequest) -> EventLoopFuture<AnswerMessage.Body> {
        send { id in CallMessage(id: id, call: call, request: request).encoded() }
    }

    /// Sends `message` as one frame, as it is, and waits for the answer carrying `id`: for tests
    /// of what keychaind does with bytes no client of ours would send.
    @_spi(Testing) public func send(raw message: [UInt8], answeredAs id: UInt32) async throws -> AnswerMessage.Body {
        try await send(answerID: id) { _ in message }.get()
    }

    private func send(answerID: UInt32? = nil, _ message: @escaping @Sendable (UInt32) -> [UInt8]) -> EventLoopFuture<AnswerMessage.Body> {
        let (id, slot, started) = state.withLock { state -> (UInt32, Slot, (EventLoopFuture<any Channel>, Int, Int)?) in
            guard !state.isShutDown else { return (0, .idle, nil) }
            state.nextID &+= 1
            // A caller already on a connection's event loop writes there: no thread hop.
            for slot in state.slots {
                if case .open(let channel) = slot, channel.eventLoop.inEventLoop, channel.isActive { return (state.nextID, slot, nil) }
            }
            let index = Int(state.nextID % UInt32(state.slots.count))
            switch state.slots[index] {
            case .open(let channel) where channel.isActive:
                return (state.nextID, .open(channel), nil)
            case .connecting(let future, let generation):
                return (state.nextID, .connecting(future, generation: generation), nil)
            default:
                state.generation += 1
                let future = connect()
                state.slots[index] = .connecting(future, generation: state.generation)
                return (state.nextID, state.slots[index], (future, index, state.generation))
            }
        }
        if let (future, index, generation) = started {
            // Outside the lock: the callback may run at once, and it takes the lock.
            future.whenComplete { result in
                self.state.withLock { state in
                    guard case .connecting(_, let current) = state.slots[index], current == generation else { return }
                    switch result {
                    case .success(let channel): state.slots[index] = .open(channel)
                    case .failure: state.slots[index] = .idle
                    }
                }
            }
        }
        let connection: EventLoopFuture<any Channel>
        switch slot {
        case .open(let channel): connection = channel.eventLoop.makeSucceededFuture(channel)
        case .connecting(let future, _): connection = future
        case .idle: return group.any().makeFailedFuture(Failure(description: "the keychaind client is shut down"))
        }
        let bytes = message(id)
        // keychaind would close the connection on a longer frame, failing every call on it.
        guard bytes.count <= CallFrame.maximumLength else {
            return connection.flatMap { $0.eventLoop.makeFailedFuture(CallTooLong(length: bytes.count)) }
        }
        return connection.flatMap { channel in
            let promise = channel.eventLoop.makePromise(of: AnswerMessage.Body.self)
            channel.writeAndFlush(PendingCall(id: answerID ?? id, message: bytes, promise: promise)).cascadeFailure(to: promise)
            return promise.futureResult
        }
    }

    /// Closes every connection; calls still waiting fail.
    public func shutdown() async {
        let slots = state.withLock { state in
            state.isShutDown = true
            defer { state.slots = state.slots.map { _ in .idle } }
            return state.slots
        }
        for slot in slots {
            switch slot {
            case .open(let channel): try? await channel.close()
            case .connecting(let future, _): try? await future.get().close()
            case .idle: break
            }
        }
    }

    private func connect() -> EventLoopFuture<any Channel> {
        let context = self.context
        let host = self.host
        return ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // An address has no name to send or check by SNI; NIOSSL then checks the address.
                    let name = host.first?.isNumber == true || host.contains(":") ? nil : host
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: name))
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(CallFrameDecoder(maximumLength: CallFrame.maximumAnswerLength))
                    )
                    try channel.pipeline.syncOperations.addHandler(AnswerHandler())
                }
            }
            .connect(host: host, port: port)
    }
}

/// A call on its way: its id, its bytes, and the promise its answer completes.
struct PendingCall {
    let id: UInt32
    let message: [UInt8]
    let promise: EventLoopPromise<AnswerMessage.Body>
}

/// Sends calls as frames and completes each one's promise when its answer arrives.
final class AnswerHandler: ChannelDuplexHandler {
    typealias InboundIn = [UInt8]
    typealias OutboundIn = PendingCall
    typealias OutboundOut = ByteBuffer

    // Only touched on the channel's event loop.
    private var waiting: [UInt32: EventLoopPromise<AnswerMessage.Body>] = [:]
    private let flusher = OneFlushPerTurn()

    /// Calls written in the same turn of the event loop share one flush (one system call).
    func flush(context: ChannelHandlerContext) {
        flusher.flush(context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let call = unwrapOutboundIn(data)
        waiting[call.id] = call.promise
        context.write(wrapOutboundOut(CallFrame.buffer(call.message, allocator: context.channel.allocator)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            let answer = try AnswerMessage.decode(unwrapInboundIn(data))
            waiting.removeValue(forKey: answer.id)?.succeed(answer.body)
        } catch {
            failAll(KeychainCallClient.Failure(description: "keychaind sent an answer that cannot be read: \(error)"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(KeychainCallClient.Failure(description: "the connection to keychaind closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(KeychainCallClient.Failure(description: "the connection to keychaind failed: \(error)"))
        context.close(promise: nil)
    }

    private func failAll(_ failure: KeychainCallClient.Failure) {
        let promises = waiting.values
        waiting.removeAll()
        for promise in promises { promise.fail(failure) }
    }
}
