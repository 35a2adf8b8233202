import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOPosix

/// A Unix-socket server that answers one JSON line with one JSON line; used for the device's
/// control socket and for each launched app's own socket.
struct SocketServer {
    /// Binds `path` (replacing a stale socket file), only the owner may connect, calls `listening`
    /// once connections are accepted, and serves until the task is cancelled.
    static func serve(
        path: URL,
        logger: Logger,
        listening: @Sendable () async throws -> Void = {},
        handle: @escaping @Sendable (Data) async -> Data
    ) async throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(unixDomainSocketPath: path.path, cleanupExistingSocketFile: true) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        chmod(path.path, 0o600)
        defer { try? FileManager.default.removeItem(at: path) }
        try await listening()
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { connections in
                for try await connection in connections {
                    group.addTask {
                        do {
                            try await connection.executeThenClose { lines, output in
                                for try await line in lines {
                                    var answer = await handle(Data(line.readableBytesView))
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
