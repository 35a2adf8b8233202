public import ArgumentParser
import Foundation

/// Where a daemon serves its metrics.
public struct MetricsAddress: Sendable, Hashable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }
}

/// Every daemon's metrics flags: `--metrics-port PORT|off` and `--metrics-host`, or METRICS_PORT
/// and METRICS_HOST in the environment.
public struct MetricsOptions: ParsableArguments {
    @Option(help: "Prometheus metrics' port (GET /metrics, plain HTTP; also METRICS_PORT); 0 picks a free one, off serves none.")
    public var metricsPort: String?

    @Option(help: "The address metrics listen on (also METRICS_HOST).")
    public var metricsHost = ProcessInfo.processInfo.environment["METRICS_HOST"] ?? "127.0.0.1"

    public init() {}

    /// The flag, else METRICS_PORT.
    private var port: String? { metricsPort ?? ProcessInfo.processInfo.environment["METRICS_PORT"] }

    public func validate() throws {
        guard let metricsPort = port, metricsPort != "off" else { return }
        guard let port = Int(metricsPort), (0...65535).contains(port) else {
            throw ValidationError("--metrics-port takes a port (0 picks one) or off, not '\(metricsPort)'")
        }
    }

    /// The address to serve metrics on, `defaultPort` unless a port is given; nil for off.
    public func address(defaultPort: Int) -> MetricsAddress? {
        if port == "off" { return nil }
        return MetricsAddress(host: metricsHost, port: port.flatMap { Int($0) } ?? defaultPort)
    }
}
