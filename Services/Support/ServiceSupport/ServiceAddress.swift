public import Foundation

/// Where a process finds another: a fixed address given as configuration (`https://keychaind:7701`,
/// as in the compose lab), or the endpoint file the other writes once it listens (`kclab up`'s
/// local lab, whose services pick free ports). Every flag that names another service takes either
/// form, and this one type decides which it is.
public enum ServiceAddress: Hashable, Sendable, CustomStringConvertible {
    /// A base URL, with keychaind's call channel (`HOST:PORT`) when it is keychaind.
    case fixed(url: String, calls: String?)
    /// An endpoint file to wait for.
    case endpointFile(URL)

    /// Reads a flag's value: an `https://` or `http://` URL is fixed, anything else is a file path.
    public init(_ text: String, calls: String? = nil) {
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            self = .fixed(url: text, calls: calls)
        } else {
            self = .endpointFile(URL(fileURLWithPath: text))
        }
    }

    /// `HOST:PORT` split at the last colon (so an IPv6 address keeps its own), as keychaind's call
    /// channel is announced; nil for anything else.
    public static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else { return nil }
        return (String(text[..<colon]), port)
    }

    public var description: String {
        switch self {
        case .fixed(let url, _): url
        case .endpointFile(let file): file.path
        }
    }

    /// The service's endpoint: at once for a fixed address; for a file, once the service has
    /// written it, waiting up to `timeout`.
    public func endpoint(service: String, timeout: Duration = .seconds(30)) async throws -> Endpoint {
        switch self {
        case .fixed(let url, let calls):
            return Endpoint(url: url, pid: 0, calls: calls)
        case .endpointFile(let file):
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let endpoint = try? Endpoint.read(from: file) { return endpoint }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw ServiceAddressFailure(description: "\(service) did not start: no \(file.path)")
        }
    }
}

/// A service that never wrote its endpoint file.
public struct ServiceAddressFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
}
