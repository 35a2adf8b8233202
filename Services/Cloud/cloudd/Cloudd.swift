import ArgumentParser
import CloudService
import Foundation
import Logging
import ServiceMetrics
import ServiceSupport

/// cloudd: the CloudKit-like service iCloud Keychain syncs through.
@main
struct Cloudd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloudd",
        abstract: "Keep every iCloud account's keychain zones, as CloudKit does for iCloud Keychain.",
        discussion: """
            Devices save and delete the records of their account's zones (one per view) with the \
            change tag they last saw, fetch each zone's changes since a token, and wait for a \
            zone to change. The account is the one the device's certificate names. docs/icloud-keychain.md.
            """
    )

    @OptionGroup var daemon: DaemonOptions

    @OptionGroup var metrics: MetricsOptions

    @Option(
        help: """
            Where the zones are kept: sqlite:PATH, or postgres://USER@HOST:PORT/DATABASE (?host=/SOCKET-FOLDER, \
            ?sslmode=require; the password from PGPASSWORD), which replicas may share. Given more than once: \
            shards, accounts spread over them by a stable hash in this order (also CLOUDD_STORE, spaces \
            between). Default sqlite: zones.sqlite in the state folder.
            """
    )
    var store: [String] = []

    func validate() throws {
        _ = try storeLocations()
    }

    /// `--store` or CLOUDD_STORE, read.
    func storeLocations() throws -> [CloudStoreLocation] {
        let texts = store.isEmpty ? (DaemonOptions.value(nil, "STORE") ?? "").split(separator: " ").map(String.init) : store
        var locations: [CloudStoreLocation] = []
        for text in texts {
            do {
                locations.append(try CloudStoreLocation(parsing: text))
            } catch {
                throw ValidationError(error.description)
            }
        }
        return locations
    }

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "cloudd")
        var configuration = CloudServer.Configuration(daemon.configuration(defaultPort: 7705))
        configuration.metrics = metrics.address(defaultPort: 9705)
        configuration.stores = try storeLocations()
        try await CloudServer.run(configuration, logger: logger)
    }
}
