import Foundation
import Glibc
import PostgresNIO

/// A PostgreSQL server of a test's own: `initdb` in a temporary folder and `pg_ctl` on a free
/// loopback port, as `nobody` when the tests run as root (PostgreSQL refuses root), stopped and
/// removed by ``stop()``. PostgreSQL comes from Debian (`make deps` installs it): its programs on
/// PATH, or in `/usr/lib/postgresql/VERSION/bin`.
final class ThrowawayPostgres {
    let folder: URL
    let port: Int
    private let bin: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        guard let bin = Self.binaries() else {
            throw Failure(description: "PostgreSQL's initdb is not installed (make deps installs Debian's postgresql)")
        }
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appending(path: "kclab-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if geteuid() == 0, let nobody = getpwnam("nobody") {
            guard chown(folder.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(folder.path) to nobody")
            }
        }
        port = try Self.freePort()
        try run("initdb", ["-D", data.path, "-U", "kclab", "-A", "trust", "--no-sync", "-E", "UTF8"])
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off"
        try run("pg_ctl", ["-D", data.path, "-l", folder.appending(path: "server.log").path, "-o", options, "-w", "-t", "60", "start"])
    }

    var data: URL { folder.appending(path: "data") }

    var configuration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: "127.0.0.1", port: port, username: "kclab", password: nil, database: "postgres", tls: .disable)
    }

    /// Stops the server (fast shutdown) and removes its folder.
    func stop() {
        try? run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs one of PostgreSQL's programs, as nobody when this process is root, through the
    /// shell's `system`: Foundation's Process does not see `runuser` end while the server that
    /// `pg_ctl start` leaves behind runs on. The arguments are paths of this folder, a port and
    /// fixed words, quoted.
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = bin.appending(path: program).path
        let prefix = geteuid() == 0 ? "/usr/sbin/runuser -u nobody -- " : ""
        let output = folder.appending(path: "\(program).out").path
        let command = prefix + ([path] + arguments).map { "'\($0)'" }.joined(separator: " ") + " </dev/null >'\(output)' 2>&1"
        let status = system(command)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) failed (\(status)): \(text.suffix(2000))")
        }
    }

    /// The folder holding initdb and pg_ctl.
    static func binaries() -> URL? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { URL(fileURLWithPath: "/usr/lib/postgresql/\($0)/bin") }
        return (path + versions).first { FileManager.default.isExecutableFile(atPath: $0.appending(path: "initdb").path) }
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        guard bound == 0 else { throw Failure(description: "cannot bind a loopback port") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
