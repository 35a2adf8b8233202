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

    @Option(help: "The built world (kclab world build --out).")
    var world = "state/world"

    @Option(help: "The state folder: associations.sqlite, endpoint.json.")
    var state = "state/associationd"

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The host name clients reach this daemon by, written to endpoint.json (default: --host).")
    var advertise: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7702

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
            world: URL(fileURLWithPath: world),
            state: URL(fileURLWithPath: state),
            host: host,
            port: port,
            cdn: cdn,
            resolve: resolutions,
            retryTick: retryTick
        )
        configuration.metrics = metrics.address(defaultPort: 9702)
        configuration.advertise = advertise
        try await AssociationServer.run(configuration, logger: logger)
    }
}
