import ArgumentParser
import Foundation
import LabControl

/// `kclab console --state DIR`
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Print the URL of the lab's console, with its token, as kclab up printed it.",
        discussion: """
            The console serves the lab's pages (its world, the overlap of its access groups) on \
            127.0.0.1 only. Open the URL in a browser on this machine: the first page load exchanges \
            the token for a cookie and drops it from the address bar; without it every page answers \
            403. The URL alone is printed, for a script: xdg-open "$(kclab console)". A console that \
            restarts draws a new token. See docs/console.md.
            """
    )

    @Option(help: "The state folder of kclab up.")
    var state = "state"

    func run() throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        guard let record = LabRecord.read(lab) else { throw fail("nothing was started in \(state); run kclab up", code: 2) }
        guard let console = record.processes.first(where: { $0.name == "console" }) else {
            throw fail("this lab runs no console: it was started by an older kclab; run kclab down --state \(state) and kclab up again", code: 2)
        }
        guard LabProcesses.isAlive(console.pid) else {
            throw fail(
                "the console has stopped; start it again with kclab restart --state \(state) console "
                    + "(its log: kclab logs --state \(state) console)"
            )
        }
        guard let url = lab.consoleURL else {
            throw fail("the console has written no URL to \(lab.consoleURLFile.path); see kclab logs --state \(state) console")
        }
        say(url)
    }
}
