public import Foundation

/// nginx from Debian's package, run in the foreground as a child process with a generated
/// configuration; stopped (and waited for) by ``stop()``.
///
/// Unchecked: `Process` is not Sendable, but it is made and started in `init` and afterwards
/// only signalled and waited for, which Foundation allows from any thread.
public final class NginxProcess: @unchecked Sendable {
    // `process` is set once in init and only read afterwards.
    private let process: Process
    public let configuration: NginxConfiguration

    /// Where Debian installs nginx.
    public static let executable = URL(fileURLWithPath: "/usr/sbin/nginx")

    /// Writes the configuration under its prefix and starts nginx; waits until it answers on its port.
    public init(_ configuration: NginxConfiguration) throws {
        self.configuration = configuration
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            throw FixtureError("nginx is not installed (apt-get install nginx; make test installs it)")
        }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = try configuration.write()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        self.process = process
        try waitUntilListening()
    }

    /// Stops nginx and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    private func waitUntilListening() throws {
        for _ in 0..<100 {
            guard process.isRunning else {
                let log = (try? String(contentsOf: configuration.errorLog, encoding: .utf8)) ?? ""
                throw FixtureError("nginx exited at start: \(log.suffix(600))")
            }
            if Self.accepts(configuration.address, configuration.port) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw FixtureError("nginx did not start listening on \(configuration.address):\(configuration.port)")
    }

    /// Whether something accepts TCP connections at the address.
    public static func accepts(_ address: String, _ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &target.sin_addr)
        return withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A TCP port free on loopback now.
    public static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FixtureError("cannot open a socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw FixtureError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The website fixture cannot run.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
