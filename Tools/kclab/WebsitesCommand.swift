import ArgumentParser
import Foundation
import WebsiteFixture
import WorldFile
import WorldLayout

/// `kclab websites config`: the nginx configuration of a world's websites, for an nginx that
/// kclab does not start itself (the compose lab's `nginx` service).
struct WebsitesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "websites",
        abstract: "Write the nginx configuration that serves a world's websites.",
        subcommands: [Config.self]
    )

    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Write nginx.conf for a built world's hosts and print nginx's arguments on one line.",
            discussion: """
                kclab up writes the same configuration for its own nginx on a loopback port. Run nginx with \
                the printed arguments: nginx $(kclab websites config …).
                """
        )

        @Option(help: "The world file.")
        var world: String

        @Option(help: "The built world (kclab world build --out).")
        var built: String

        @Option(help: "nginx's folder: the configuration, its logs and temporary files.")
        var prefix: String

        @Option(help: "The address nginx listens on.")
        var address = "127.0.0.1"

        @Option(help: "The port nginx listens on, for every host (chosen by SNI).")
        var port = 443

        @Option(help: "The login website's ADDR:PORT (plain HTTP) that every host proxies to.")
        var login: String?

        func validate() throws {
            guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
        }

        func run() async throws {
            do {
                let configuration = NginxConfiguration(
                    world: try World.load(contentsOf: URL(fileURLWithPath: world)),
                    layout: WorldLayout(root: URL(fileURLWithPath: built)),
                    prefix: URL(fileURLWithPath: prefix),
                    address: address,
                    port: port,
                    loginService: login
                )
                say(try configuration.write().joined(separator: " "))
            } catch {
                throw fail("\(error)")
            }
        }
    }
}
