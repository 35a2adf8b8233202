public import NIOCore

/// The call channel's frames: a 32-bit big-endian length, then that many bytes of message.
public enum CallFrame {
    /// The longest call keychaind reads: a 1 MiB item (refused later with errSecParam, as over
    /// HTTP) and its attributes fit; anything longer closes the connection. A client refuses to
    /// send a longer one (errSecParam at the caller, as securityd's client refuses it).
    public static let maximumLength = 4 * 1024 * 1024
    /// The longest answer a client reads: a `kSecMatchLimitAll` read of many large items. keychaind
    /// answers a larger one with errSecAllocate instead of sending it.
    public static let maximumAnswerLength = 64 * 1024 * 1024

    /// A frame holding `message`.
    public static func buffer(_ message: [UInt8], allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: message.count + 4)
        buffer.writeInteger(UInt32(message.count))
        buffer.writeBytes(message)
        return buffer
    }
}

/// Splits the stream into messages, refusing a frame longer than `maximumLength`.
public struct CallFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = [UInt8]
    /// The longest frame taken: ``CallFrame/maximumLength`` for calls, ``CallFrame/maximumAnswerLength`` for answers.
    public let maximumLength: Int

    public init(maximumLength: Int = CallFrame.maximumLength) {
        self.maximumLength = maximumLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length <= maximumLength else { throw CallFrameTooLong(length: Int(length), maximumLength: maximumLength) }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let message = buffer.readBytes(length: Int(length)) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// A frame announced a length past the limit.
public struct CallFrameTooLong: Error, CustomStringConvertible {
    public let length: Int
    public let maximumLength: Int
    public var description: String { "a frame of \(length) bytes is longer than the \(maximumLength) the call channel takes" }
}
