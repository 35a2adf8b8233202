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

    @Option(help: "The built world (kclab world build --out).")
    var world = "state/world"

    @Option(help: "The state folder: approvals.sqlite, endpoint.json.")
    var state = "state/webcredentiald"

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The host name clients reach this daemon by, written to endpoint.json (default: --host).")
    var advertise: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7703

    @Option(help: "keychaind's base URL.")
    var keychaind = "https://127.0.0.1:7701"

    @Option(help: "associationd's base URL.")
    var associationd = "https://127.0.0.1:7702"

    @OptionGroup var metrics: MetricsOptions

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "webcredentiald")
        var configuration = WebCredentialServer.Configuration(
            world: URL(fileURLWithPath: world),
            state: URL(fileURLWithPath: state),
            host: host,
            port: port,
            keychaind: keychaind,
            associationd: associationd
        )
        configuration.metrics = metrics.address(defaultPort: 9703)
        configuration.advertise = advertise
        try await WebCredentialServer.run(configuration, logger: logger)
    }
}
