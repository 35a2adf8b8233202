import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceMetrics
import ServiceSupport
import WebCredentialService

/// webcredentiald: SecAddSharedWebCredential and SecRequestSharedWebCredential for every device.
@main
struct Webcredentiald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webcredentiald",
        abstract: "Share website passwords with associated apps, as securityd and swcagent do.",
        discussion: """
            Devices call it for their apps; it checks the app's verified entitlement, asks associationd \
            whether the site approves the app, returns the prompts the device's user must answer, and \
            keeps the passwords in keychaind (group com.apple.cfnetwork), never anywhere else.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "keychaind's base URL.")
    var keychaind = "https://127.0.0.1:7701"

    @Option(help: "associationd's base URL.")
    var associationd = "https://127.0.0.1:7702"

    @OptionGroup var metrics: MetricsOptions

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "webcredentiald")
        var configuration = WebCredentialServer.Configuration(
            daemon.configuration(defaultPort: 7703),
            keychaind: keychaind,
            associationd: associationd
        )
        configuration.metrics = metrics.address(defaultPort: 9703)
        try await WebCredentialServer.run(configuration, logger: logger)
    }
}
