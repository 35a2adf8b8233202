import AppleCDN
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceSupport
import SiteAssociationFetch

/// cdn: the Apple-like CDN iOS 14+ devices ask for association files.
@main
struct CDN: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdn",
        abstract: "Serve association files as Apple's CDN does: fetched from each site, cached, GET /a/v1/DOMAIN.",
        discussion: "A file is cached for --max-age seconds (6 hours, as Apple's); a failure for an hour. Nothing purges it."
    )

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Reach a site at ADDR:PORT instead of asking DNS: HOST=ADDR:PORT (repeatable).")
    var resolve: [String] = []

    @Option(help: "Seconds a file stays cached.")
    var maxAge = 21_600

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "cdn")
        let resolutions: Resolutions.Map
        do {
            resolutions = try Resolutions.parse(resolve)
        } catch {
            throw ValidationError(error.description)
        }
        try FileManager.default.createDirectory(at: daemon.listen.stateFolder, withIntermediateDirectories: true)
        let configuration = CDNServer.Configuration(
            daemon.configuration(defaultPort: 7704),
            resolve: resolutions,
            maxAge: maxAge
        )
        try await CDNServer.run(configuration, logger: logger)
    }
}
