import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking client connection to a Unix socket that exchanges one JSON object per line; used by
/// apps (the Security module) and by kclab. Not thread-safe: callers serialize.
public final class LineSocket {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// The largest line accepted from the device (results of many items are large).
    public static let maximumLine = 64 << 20

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailure("socket() failed: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw SocketFailure("the socket path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw SocketFailure("cannot connect to \(path): errno \(code)")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends `request` and waits for one response line.
    public func exchange<Request: Encodable, Response: Decodable>(_ request: Request, as type: Response.Type) throws -> Response {
        var line = try JSONEncoder().encode(request)
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw SocketFailure("the device closed the connection") }
                offset += written
            }
        }
        return try receive(type)
    }

    /// Waits for the next line, for an answer that comes in several (a program's output as it runs).
    public func receive<Response: Decodable>(_ type: Response.Type) throws -> Response {
        try JSONDecoder().decode(type, from: Data(try readLine()))
    }

    private func readLine() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        // Bytes already searched for the newline are not searched again after the next read.
        var scanned = 0
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            scanned = buffer.count
            guard buffer.count < Self.maximumLine else { throw SocketFailure("the device's answer is too long") }
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw SocketFailure("the device closed the connection") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}

/// A socket that could not be used.
public struct SocketFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
