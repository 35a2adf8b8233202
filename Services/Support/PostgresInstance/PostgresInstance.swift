public import Foundation
import Glibc

/// A PostgreSQL server of the lab's own: `initdb` in a folder and `pg_ctl` on a loopback port, as
/// `nobody` when this process is root (PostgreSQL refuses root). Tests start one each and stop it;
/// `make scale-demo` starts its shards this way. PostgreSQL comes from Debian (`make deps`
/// installs it): its programs on PATH, or in `/usr/lib/postgresql/VERSION/bin`. The server
/// trusts every local connection (`-A trust`) and listens on 127.0.0.1 only.
public final class PostgresInstance: Sendable {
    /// The folder holding the cluster (`data/`), its socket and its log.
    public let folder: URL
    /// The loopback port it listens on.
    public let port: Int
    private let bin: URL

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates a cluster in a new temporary folder and starts it on a free loopback port; with
    /// `durable` false (tests), without fsync.
    public convenience init(durable: Bool = false) throws {
        try self.init(folder: ())
        try run("initdb", ["-D", data.path, "-U", "kclab", "-A", "trust", "--no-sync", "-E", "UTF8"])
        try start(durable: durable)
    }

    /// A streaming standby of `primary` (`pg_basebackup -R`), started durable, in a new
    /// temporary folder. ``promote()`` makes it a primary.
    public convenience init(standbyOf primary: PostgresInstance) throws {
        try self.init(folder: ())
        try run("pg_basebackup", ["-D", data.path, "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "kclab", "-X", "stream", "-R"])
        try start(durable: true)
    }

    /// The server whose cluster an earlier instance made in `folder`, on the port it was last
    /// started on (from `data/postmaster.opts`, which PostgreSQL keeps after it stops), to stop
    /// and start again (`kclab restart postgres`).
    public init(reopening folder: URL) throws {
        let bin = try Self.installedBinaries()
        let options = folder.appending(path: "data/postmaster.opts")
        guard let text = try? String(contentsOf: options, encoding: .utf8), let port = Self.port(inOptions: text) else {
            throw Failure(description: "\(options.path) does not say the server's port: it was never started there")
        }
        self.bin = bin
        self.folder = folder
        self.port = port
    }

    /// The port of `-p "PORT"` in the command line PostgreSQL wrote to `postmaster.opts`.
    static func port(inOptions text: String) -> Int? {
        let words = text.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\n")) }
        guard let flag = words.firstIndex(of: "-p"), flag + 1 < words.count, let port = Int(words[flag + 1]) else { return nil }
        return (1...65535).contains(port) ? port : nil
    }

    /// An empty folder of its own (given to nobody when root) and a free port.
    private init(folder _: Void) throws {
        let bin = try Self.installedBinaries()
        self.bin = bin
        folder = FileManager.default.temporaryDirectory.appending(path: "kclab-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if geteuid() == 0, let nobody = getpwnam("nobody") {
            guard chown(folder.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(folder.path) to nobody")
            }
        }
        port = try Self.freePort()
    }

    public var data: URL { folder.appending(path: "data") }

    /// The store URL cloudd takes (`--store`): user `kclab`, database `postgres`.
    public var url: String { "postgres://kclab@127.0.0.1:\(port)/postgres" }

    /// Starts the server (again, after ``stop(removing:)`` with `removing` false).
    public func start(durable: Bool = false) throws {
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path)" + (durable ? "" : " -c fsync=off")
        let log = Self.logFile(in: folder)
        do {
            try run("pg_ctl", ["-D", data.path, "-l", log.path, "-o", options, "-w", "-t", "60", "start"])
        } catch let failure as Failure {
            // pg_ctl says only that the server did not start; the server's log says why.
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(8)
            throw Failure(description: failure.description + "\nthe server's log (\(log.path)) ends:\n" + lines.joined(separator: "\n"))
        }
    }

    /// The running server's process ID (the first line of `data/postmaster.pid`), if it runs.
    public var serverPID: Int32? {
        guard let text = try? String(contentsOf: data.appending(path: "postmaster.pid"), encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Stops the server (fast shutdown); with `removing`, removes its folder too.
    public func stop(removing: Bool = true) {
        try? run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
        if removing { try? FileManager.default.removeItem(at: folder) }
    }

    /// Makes every commit wait until a standby has it (`synchronous_standby_names = '*'`,
    /// synchronous_commit on), then waits up to 30 s for a standby to stream synchronously.
    public func requireSynchronousStandby() throws {
        try sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
        try run("pg_ctl", ["-D", data.path, "reload"])
        let deadline = ContinuousClock.now + .seconds(30)
        while try sql("SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == "0" {
            guard ContinuousClock.now < deadline else { throw Failure(description: "no standby streams synchronously after 30 s") }
            usleep(200_000)
        }
    }

    /// Promotes this standby to a primary (`pg_ctl promote`), waiting until it takes writes.
    public func promote() throws {
        try run("pg_ctl", ["-D", data.path, "-w", "-t", "60", "promote"])
    }

    /// Runs one statement through psql and gives its output, unaligned and without headers.
    @discardableResult
    public func sql(_ statement: String) throws -> String {
        try run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "kclab", "-d", "postgres", "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", statement])
        let output = (try? String(contentsOf: folder.appending(path: "psql.out"), encoding: .utf8)) ?? ""
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server as a crash would (immediate shutdown: no checkpoint, recovery from the
    /// write-ahead log at the next start), keeping its folder.
    public func crash() throws {
        try run("pg_ctl", ["-D", data.path, "-m", "immediate", "-w", "stop"])
    }

    /// Runs one of PostgreSQL's programs, as nobody when this process is root, through the
    /// shell's `system`: Foundation's Process does not see `runuser` end while the server that
    /// `pg_ctl start` leaves behind runs on. The arguments are paths of this folder, a port, fixed
    /// words and the lab's own statements, each quoted for the shell.
    ///
    /// The programs run without this process's open files (``closingInheritedFiles``): SwiftNIO
    /// opens its sockets without close-on-exec, so a server started from a fleet of thousands of
    /// connections would inherit them all, keep them open (the fleet's connections would never
    /// really close) and count them against `max_files_per_process`: PostgreSQL then refused to
    /// start ("insufficient file descriptors available to start server process").
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = bin.appending(path: program).path
        let prefix = geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []
        let output = folder.appending(path: "\(program).out").path
        let quoted = (["/bin/bash", "-c", Self.closingInheritedFiles, "postgres-program"] + prefix + [path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        // From the server's own folder: nobody may not enter the caller's working folder, and
        // psql would say so on the output this reads.
        let command = "cd '\(folder.path)' && " + quoted.joined(separator: " ") + " </dev/null >'\(output)' 2>&1"
        let status = system(command)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) failed (\(status)): \(text.suffix(2000))")
        }
    }

    /// A bash script that closes every open file but standard input, output and error, then runs
    /// its arguments.
    static let closingInheritedFiles =
        #"for fd in /proc/self/fd/*; do fd=${fd##*/}; "# + #"if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@""#

    /// ``binaries()``, or the error that says how to install them.
    static func installedBinaries() throws -> URL {
        guard let bin = binaries() else {
            throw Failure(description: "PostgreSQL's initdb is not installed (make deps installs Debian's postgresql)")
        }
        return bin
    }

    /// The server's log in the folder of a cluster this type made.
    public static func logFile(in folder: URL) -> URL {
        folder.appending(path: "server.log")
    }

    /// The folder holding PostgreSQL's programs (initdb, pg_ctl, pg_basebackup, psql): the first
    /// on PATH that has them all, else Debian's newest.
    public static func binaries() -> URL? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { URL(fileURLWithPath: "/usr/lib/postgresql/\($0)/bin") }
        return (path + versions).first { folder in
            ["initdb", "pg_ctl", "pg_basebackup", "psql"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder.appending(path: $0).path) }
        }
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
