import ArgumentParser
import AssociationAPI
import AssociationService
import Foundation
import Hummingbird
import Logging
import ServiceMetrics
import ServiceSupport
import SiteAssociation
import SiteAssociationFetch

/// associationd: verifies the associated domains of every installed app, as swcd does.
@main
struct Associationd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "associationd",
        abstract: "Verify and keep the associated domains of every app a KeychainLab device installs.",
        discussion: "Pending sites are retried every 3 hours, up to 8 times, and whenever the app asks."
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "The Apple-like CDN's URL, for iOS 14+ devices (without it every device asks sites directly).")
    var cdn: String?

    @Option(help: "Reach a site at ADDR:PORT instead of asking DNS: HOST=ADDR:PORT (repeatable).")
    var resolve: [String] = []

    @Option(help: "Seconds between looks for due retries.")
    var retryTick = 60

    @OptionGroup var metrics: MetricsOptions

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "associationd")
        let resolutions: Resolutions.Map
        do {
            resolutions = try Resolutions.parse(resolve)
        } catch {
            throw ValidationError(error.description)
        }
        var configuration = AssociationServer.Configuration(
            daemon.configuration(defaultPort: 7702),
            cdn: cdn,
            resolve: resolutions,
            retryTick: retryTick
        )
        configuration.metrics = metrics.address(defaultPort: 9702)
        try await AssociationServer.run(configuration, logger: logger)
    }
}
