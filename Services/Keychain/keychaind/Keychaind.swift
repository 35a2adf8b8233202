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
            "Each flag may also be set in the environment: KEYCHAIND_WORLD, KEYCHAIND_STATE, KEYCHAIND_HOST, KEYCHAIND_ADVERTISE, KEYCHAIND_PORT, KEYCHAIND_CALLS_PORT, METRICS_PORT, METRICS_HOST, KEYCHAIND_AUDIT, LOG_LEVEL."
    )

    @OptionGroup var daemon: DaemonOptions

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
        let configuration = KeychainServer.Configuration(
            daemon.configuration(defaultPort: 7701),
            callsPort: callsPort,
            metrics: metrics.address(defaultPort: 9701),
            writesAuditLog: audit == "on"
        )
        try await KeychainServer.run(configuration, logger: logger)
    }
}
