import ArgumentParser
import ConsoleService
import Foundation
import ServiceSupport

/// console: the lab's pages for a browser on this machine.
@main
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract:
            "Serve a lab's console: its world, the overlap of its access groups and its live decisions, as pages for a browser on this machine.",
        discussion: """
            Listens on 127.0.0.1 only, over plain HTTP. At start it draws a random token and writes \
            http://127.0.0.1:PORT/?token=TOKEN to the URL file (readable by its owner only); the first \
            request with the token gets a cookie and is sent to the same page without it, and every \
            request without the cookie gets 403. With --keychaind, --associationd and --built, the pages read those daemons' \
            operator routes (the Decisions page follows keychaind's decisions). Each flag may also be set in the environment: \
            CONSOLE_WORLD, CONSOLE_STATE, CONSOLE_PORT, CONSOLE_URL_FILE, CONSOLE_KEYCHAIND, CONSOLE_ASSOCIATIOND, CONSOLE_BUILT, \
            LOG_LEVEL. docs/console.md.
            """
    )

    @Option(help: "The world file the lab was built from (also CONSOLE_WORLD).")
    var world: String?

    @Option(help: "The console's state folder: endpoint.json (also CONSOLE_STATE); default state/console.")
    var state: String?

    @Option(help: "The port on 127.0.0.1, 0 picks a free one (also CONSOLE_PORT); default 7720.")
    var port: Int?

    @Option(help: "Where to write the URL with its token (also CONSOLE_URL_FILE); default STATE/console.url.")
    var urlFile: String?

    @Option(help: "keychaind's URL, whose decisions the Decisions page follows (also CONSOLE_KEYCHAIND).")
    var keychaind: String?

    @Option(help: "associationd's URL, whose associations the Associations page shows (also CONSOLE_ASSOCIATIOND).")
    var associationd: String?

    @Option(help: "The built world folder, for the console's identity at the daemons (also CONSOLE_BUILT).")
    var built: String?

    /// The flag, else the console's variable.
    func value(_ flag: String?, _ key: String) -> String? {
        DaemonOptions.value(flag, key, daemon: "console")
    }

    func validate() throws {
        guard value(world, "WORLD") != nil else { throw ValidationError("give the world file: --world FILE (or CONSOLE_WORLD)") }
        if let text = value(port.map(String.init), "PORT"), Int(text).map({ (0...65535).contains($0) }) != true {
            throw ValidationError("the port must be 0 to 65535, not '\(text)'")
        }
        if value(keychaind, "KEYCHAIND") != nil || value(associationd, "ASSOCIATIOND") != nil, value(built, "BUILT") == nil {
            throw ValidationError("give the built world folder with the daemons' URLs: --built DIR (or CONSOLE_BUILT)")
        }
    }

    func run() async throws {
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "console")
        let configuration = ConsoleServer.Configuration(
            world: URL(fileURLWithPath: value(world, "WORLD") ?? ""),
            state: URL(fileURLWithPath: value(state, "STATE") ?? "state/console"),
            port: value(port.map(String.init), "PORT").flatMap(Int.init) ?? ConsoleServer.Configuration.defaultPort,
            urlFile: value(urlFile, "URL_FILE").map { URL(fileURLWithPath: $0) },
            keychaind: value(keychaind, "KEYCHAIND"),
            associationd: value(associationd, "ASSOCIATIOND"),
            built: value(built, "BUILT").map { URL(fileURLWithPath: $0) }
        )
        try await ConsoleServer.run(configuration, logger: logger)
    }
}
