import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOPosix

/// A Unix-socket server that answers one JSON line with one JSON line (or, for a request that
/// streams, several, the last one final); used for the device's
/// control socket and for each launched app's own socket.
struct SocketServer {
    /// The longest line read: a call with the largest item data (1 MiB, base64 in JSON) and its
    /// update fits with room to spare. A longer line is answered with `refuse` and the connection
    /// closed, so no client (an app among them) can make its device hold more.
    static let maximumLineBytes = 4 << 20

    /// Binds `path` (replacing a stale socket file), only the owner (`owner`, else this process's
    /// user) may connect, calls `listening` once connections are accepted, and serves until the
    /// task is cancelled.
    static func serve(
        path: URL,
        owner: UInt32? = nil,
        logger: Logger,
        listening: @Sendable () async throws -> Void = {},
        refuse: @escaping @Sendable (String) -> Data,
        handle: @escaping @Sendable (Data, _ send: @escaping @Sendable (Data) async -> Void) async -> Data
    ) async throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(unixDomainSocketPath: path.path, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maximumLineBytes)
                    )
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        chmod(path.path, 0o600)
        if let owner, chown(path.path, owner, owner) != 0 {
            try? await server.channel.close()
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path.path])
        }
        defer { try? FileManager.default.removeItem(at: path) }
        try await listening()
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask {
                        do {
                            try await connection.executeThenClose { lines, output in
                                do {
                                    // Answers sent before the last one (a program's output as it runs).
                                    let send: @Sendable (Data) async -> Void = { part in
                                        var line = part
                                        line.append(UInt8(ascii: "\n"))
                                        try? await output.write(ByteBuffer(bytes: line))
                                    }
                                    for try await line in lines {
                                        var answer = await handle(Data(line.readableBytesView), send)
                                        answer.append(UInt8(ascii: "\n"))
                                        try await output.write(ByteBuffer(bytes: answer))
                                    }
                                } catch is ByteToMessageDecoderError.PayloadTooLargeError {
                                    logger.notice("a socket line over the limit was refused", metadata: ["socket": "\(path.lastPathComponent)"])
                                    var answer = refuse("the request is longer than \(maximumLineBytes) bytes without a newline")
                                    answer.append(UInt8(ascii: "\n"))
                                    try await output.write(ByteBuffer(bytes: answer))
                                }
                            }
                        } catch {
                            logger.debug("a socket connection ended", metadata: ["error": "\(error)"])
                        }
                    }
                }
            }
        }
    }
}
