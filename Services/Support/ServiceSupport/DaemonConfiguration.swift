public import Foundation

/// What every daemon's configuration starts with: the built world it reads, the state folder it
/// keeps, and where it listens (read from flags and the environment by ``DaemonOptions``).
public struct DaemonConfiguration: Sendable {
    /// How many connections the kernel holds for a daemon before it accepts them (Linux caps it at
    /// `net.core.somaxconn`, 4,096 by default). The default of 256 dropped connections when a fleet
    /// of 1,000 devices started over ten seconds (`kclab fleet`: connect timeouts at associationd
    /// while it was busy); thousands of devices arriving at once must wait, not be refused.
    public static let listenBacklog = 4096

    /// The built world: TLS identities, trust roots (for the website, which has no TLS of its
    /// own, the world file: its sites and declared accounts).
    public var world: URL
    /// The daemon's state folder: its database and endpoint.json.
    public var state: URL
    /// The address to bind; loopback by default.
    public var host: String
    /// The host name clients reach the daemon by, written to endpoint.json; nil: `host`.
    public var advertise: String?
    /// The port; 0 picks a free one (written to the endpoint file).
    public var port: Int

    public init(world: URL, state: URL, host: String = "127.0.0.1", advertise: String? = nil, port: Int) {
        self.world = world
        self.state = state
        self.host = host
        self.advertise = advertise
        self.port = port
    }

    /// `STATE/endpoint.json`.
    public var endpointFile: URL { state.appending(path: "endpoint.json") }
}

/// A daemon's configuration, whose common part reads as its own (`configuration.world`).
@dynamicMemberLookup
public protocol DaemonConfigured {
    var daemon: DaemonConfiguration { get set }
}

extension DaemonConfigured {
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<DaemonConfiguration, Value>) -> Value {
        get { daemon[keyPath: keyPath] }
        set { daemon[keyPath: keyPath] = newValue }
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<DaemonConfiguration, Value>) -> Value {
        daemon[keyPath: keyPath]
    }
}
