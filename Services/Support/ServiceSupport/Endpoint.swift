public import Foundation
public import Logging

/// Where a running service listens, written by the service once it is bound (so a port of 0 can be
/// used) and read by the tools that start it.
public struct Endpoint: Codable, Hashable, Sendable {
    /// The base URL, such as `https://127.0.0.1:7701`.
    public let url: String
    /// The process ID.
    public let pid: Int32
    /// keychaind's call channel, `HOST:PORT` (mutual TLS, binary frames); nil for other services.
    public let calls: String?
    /// The daemon's Prometheus metrics, `http://HOST:PORT/metrics`; nil when it serves none.
    public let metrics: String?

    public init(url: String, pid: Int32, calls: String? = nil, metrics: String? = nil) {
        self.url = url
        self.pid = pid
        self.calls = calls
        self.metrics = metrics
    }

    /// Writes the endpoint file atomically.
    public func write(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: file, options: .atomic)
    }

    /// Reads an endpoint file.
    public static func read(from file: URL) throws -> Endpoint {
        try JSONDecoder().decode(Endpoint.self, from: Data(contentsOf: file))
    }
}

extension Endpoint {
    /// What a service does once its server is bound: writes `https://HOST:PORT` and its PID to
    /// `file`, and says so in the log (or why it could not). `host` is the name clients reach it
    /// by: the listening address, or the name given with `--advertise` (the compose lab's service
    /// names, when the daemon listens on `0.0.0.0`).
    public static func announce(
        service: String,
        host: String,
        port: Int,
        to file: URL,
        logger: Logger,
        scheme: String = "https",
        calls: String? = nil,
        metrics: String? = nil
    ) {
        let endpoint = Endpoint(url: "\(scheme)://\(host):\(port)", pid: getpid(), calls: calls, metrics: metrics)
        do {
            try endpoint.write(to: file)
            logger.info("\(service) listening", metadata: ["http.url": "\(endpoint.url)", "calls.address": "\(calls ?? "")"])
        } catch {
            logger.error("cannot write the endpoint file", metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
    }
}
