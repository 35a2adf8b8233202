import ArgumentParser
import AssociationAPI
import AssociationService
import Foundation
import Hummingbird
import Logging
import SiteAssociation

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

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7702

    @Option(help: "The Apple-like CDN's URL, for iOS 14+ devices (without it every device asks sites directly).")
    var cdn: String?

    @Option(help: "Reach a site at ADDR:PORT instead of asking DNS: HOST=ADDR:PORT (repeatable).")
    var resolve: [String] = []

    @Option(help: "Seconds between looks for due retries.")
    var retryTick = 60

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "associationd")
        logger.logLevel = Logger.Level(rawValue: ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info") ?? .info
        var resolutions: [String: (address: String, port: Int?)] = [:]
        for entry in resolve {
            let sides = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let target = sides.count == 2 ? sides[1].split(separator: ":").map(String.init) : []
            guard sides.count == 2, (1...2).contains(target.count) else {
                throw ValidationError("--resolve must be HOST=ADDR[:PORT], not '\(entry)'")
            }
            resolutions[sides[0].lowercased()] = (target[0], target.count == 2 ? Int(target[1]) : nil)
        }
        let configuration = AssociationServer.Configuration(
            world: URL(fileURLWithPath: world),
            state: URL(fileURLWithPath: state),
            host: host,
            port: port,
            cdn: cdn,
            resolve: resolutions,
            retryTick: retryTick
        )
        let (app, center) = try AssociationServer.application(configuration, logger: logger)
        let tick = retryTick
        let retries = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(tick))
                for record in (try? await center.retryDue()) ?? [] {
                    logger.info("retried", metadata: ["app.id": "\(record.appID)", "entry": "\(record.entry)", "state": "\(record.state.rawValue)"])
                }
            }
        }
        defer { retries.cancel() }
        try await app.runService()
    }
}
