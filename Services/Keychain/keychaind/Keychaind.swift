import ArgumentParser
import Foundation
import Hummingbird
import KeychainService
import Logging
import NIOCore
import NIOPosix
import ServiceMetrics
import ServiceSupport

/// keychaind: the keychain of every device in a KeychainLab world.
@main
struct Keychaind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychaind",
        abstract: "Serve the keychains of a KeychainLab world over HTTPS with mutual TLS.",
        discussion:
            "Each flag may also be set in the environment: KEYCHAIND_WORLD, KEYCHAIND_STATE, KEYCHAIND_HOST, KEYCHAIND_PORT, KEYCHAIND_CALLS_PORT, METRICS_PORT, METRICS_HOST, KEYCHAIND_AUDIT, LOG_LEVEL."
    )

    @Option(help: "The built world (kclab world build --out).")
    var world = ProcessInfo.processInfo.environment["KEYCHAIND_WORLD"] ?? "state/world"

    @Option(help: "The state folder: database, keys, endpoint.json.")
    var state = ProcessInfo.processInfo.environment["KEYCHAIND_STATE"] ?? "state/keychaind"

    @Option(help: "The address to listen on.")
    var host = ProcessInfo.processInfo.environment["KEYCHAIND_HOST"] ?? "127.0.0.1"

    @Option(help: "The host name clients reach this daemon by, written to endpoint.json (default: --host).")
    var advertise: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = Int(ProcessInfo.processInfo.environment["KEYCHAIND_PORT"] ?? "") ?? 7701

    @Option(help: "The call channel's port (SecItem calls as binary frames over mutual TLS); 0 picks a free one.")
    var callsPort = Int(ProcessInfo.processInfo.environment["KEYCHAIND_CALLS_PORT"] ?? "") ?? 7711

    @OptionGroup var metrics: MetricsOptions

    @Option(help: "on: append every decision to STATE/audit.jsonl; off: keep it in memory only.")
    var audit = ProcessInfo.processInfo.environment["KEYCHAIND_AUDIT"] ?? "on"

    func validate() throws {
        guard ["on", "off"].contains(audit) else { throw ValidationError("--audit takes on or off, not '\(audit)'") }
    }

    func run() async throws {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "keychaind")
        var configuration = KeychainServer.Configuration(
            world: URL(fileURLWithPath: world),
            state: URL(fileURLWithPath: state),
            host: host,
            port: port,
            callsPort: callsPort,
            metrics: metrics.address(defaultPort: 9701),
            writesAuditLog: audit == "on"
        )
        configuration.advertise = advertise
        try await KeychainServer.run(configuration, logger: logger)
    }
}
