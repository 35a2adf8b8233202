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

    @Option(help: "The world file.")
    var world: String

    @Option(help: "The state folder: website.sqlite, endpoint.json.")
    var state = "state/website"

    @Option(help: "The address to listen on (plain HTTP: keep it on loopback, behind nginx).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7710

    @Option(help: "scrypt's work factor as log2(N); 15 (32 MiB per hash) unless testing.")
    var scryptLogN = 15

    func validate() throws {
        guard (10...20).contains(scryptLogN) else { throw ValidationError("--scrypt-log-n must be 10 to 20") }
    }

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "website")
        let configuration = WebsiteServer.Configuration(
            world: try World.load(contentsOf: URL(fileURLWithPath: world)),
            state: URL(fileURLWithPath: state),
            host: host,
            port: port,
            hasher: PasswordHasher(logN: scryptLogN)
        )
        try await WebsiteServer.run(configuration, logger: logger)
    }
}
