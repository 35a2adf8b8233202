import ArgumentParser
import Foundation
import Hummingbird
import Logging
import LoginService
import ServiceSupport
import WorldFile

/// website: the login service of a world's websites, behind nginx.
@main
struct WebsiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "website",
        abstract: "Serve the login pages and API of a world's websites (behind nginx, which adds TLS).",
        discussion: """
            Accounts live in STATE/website.sqlite with passwords as salted scrypt hashes; the world's \
            declared accounts are added at start. Every host of a world website (its domain and \
            subdomains) shares the domain's accounts; the Host header chooses the site.
            """
    )

    @Option(help: "The world file: its websites and their declared accounts (also WEBSITE_WORLD).")
    var world: String?

    /// --state (website.sqlite, endpoint.json, admin.sock), --host (plain HTTP: keep it on
    /// loopback, behind nginx), --advertise, --port (default 7710), or WEBSITE_STATE…
    @OptionGroup var listen: ListenOptions

    @Option(help: "scrypt's work factor as log2(N); 15 (32 MiB per hash) unless testing.")
    var scryptLogN = 15

    func validate() throws {
        guard (10...20).contains(scryptLogN) else { throw ValidationError("--scrypt-log-n must be 10 to 20") }
        guard DaemonOptions.value(world, "WORLD") != nil else { throw ValidationError("give the world file: --world FILE (or WEBSITE_WORLD)") }
    }

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "website")
        let file = URL(fileURLWithPath: DaemonOptions.value(world, "WORLD") ?? "")
        let configuration = WebsiteServer.Configuration(
            daemon: listen.configuration(world: file, defaultPort: 7710),
            world: try World.load(contentsOf: file),
            hasher: PasswordHasher(logN: scryptLogN)
        )
        try await WebsiteServer.run(configuration, logger: logger)
    }
}
