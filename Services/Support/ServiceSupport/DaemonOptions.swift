public import ArgumentParser
public import Foundation

/// The flags every daemon takes, read the same way by each: the flag, else the daemon's
/// environment variable (the program's name in capitals, then the flag's: `KEYCHAIND_PORT`,
/// `ASSOCIATIOND_STATE`), else the default. The built world, and where the daemon keeps its state
/// and listens (``ListenOptions``).
public struct DaemonOptions: ParsableArguments {
    @Option(help: "The built world (kclab world build --out; also \(DaemonOptions.variable("WORLD"))); default state/world.")
    var world: String?

    @OptionGroup public var listen: ListenOptions

    public init() {}

    /// The daemon's name, the program's: `keychaind`.
    public static var daemon: String { ProcessInfo.processInfo.processName }

    /// The environment variable of `key` for `daemon`: `KEYCHAIND_PORT`.
    public static func variable(_ key: String, daemon: String = daemon) -> String {
        "\(daemon.uppercased())_\(key)"
    }

    /// The flag's value, else the daemon's variable from the environment.
    public static func value(
        _ flag: String?,
        _ key: String,
        daemon: String = daemon,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        flag ?? environment[variable(key, daemon: daemon)]
    }

    /// The built world.
    public var worldFolder: URL { URL(fileURLWithPath: Self.value(world, "WORLD") ?? "state/world") }

    /// The common part of the daemon's configuration, with `defaultPort` unless a flag or the
    /// environment names another.
    public func configuration(defaultPort: Int) -> DaemonConfiguration {
        listen.configuration(world: worldFolder, defaultPort: defaultPort)
    }
}

/// Where a daemon keeps its state and listens: the part of ``DaemonOptions`` the website takes too
/// (it reads a world file, not a built world), read from flags and the environment the same way.
public struct ListenOptions: ParsableArguments {
    @Option(
        help: "The daemon's state folder: database, endpoint.json (also \(DaemonOptions.variable("STATE"))); default state/\(DaemonOptions.daemon)."
    )
    var state: String?

    @Option(help: "The address to listen on (also \(DaemonOptions.variable("HOST"))); default 127.0.0.1, loopback.")
    var host: String?

    @Option(
        help: "The host name clients reach the daemon by, written to endpoint.json (also \(DaemonOptions.variable("ADVERTISE"))); default --host."
    )
    var advertise: String?

    @Option(help: "The port to listen on, 0 picks a free one (also \(DaemonOptions.variable("PORT"))); default the daemon's own.")
    var port: Int?

    public init() {}

    public func validate() throws {
        if let text = DaemonOptions.value(port.map(String.init), "PORT"), Int(text).map({ (0...65535).contains($0) }) != true {
            throw ValidationError("the port must be 0 to 65535, not '\(text)'")
        }
    }

    /// The state folder.
    public var stateFolder: URL { URL(fileURLWithPath: DaemonOptions.value(state, "STATE") ?? "state/\(DaemonOptions.daemon)") }

    /// The address to listen on.
    public var listenHost: String { DaemonOptions.value(host, "HOST") ?? "127.0.0.1" }

    /// The name written to endpoint.json, when it is not the listening address.
    public var advertisedHost: String? { DaemonOptions.value(advertise, "ADVERTISE") }

    /// The port, `defaultPort` unless a flag or the environment names one.
    public func listenPort(default defaultPort: Int) -> Int {
        DaemonOptions.value(port.map(String.init), "PORT").flatMap(Int.init) ?? defaultPort
    }

    /// A daemon configuration reading `world`, listening as these options say.
    public func configuration(world: URL, defaultPort: Int) -> DaemonConfiguration {
        DaemonConfiguration(
            world: world,
            state: stateFolder,
            host: listenHost,
            advertise: advertisedHost,
            port: listenPort(default: defaultPort)
        )
    }
}
