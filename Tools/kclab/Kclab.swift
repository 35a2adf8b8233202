import ArgumentParser
import Foundation
import ServiceSupport

/// `kclab`: the one command-line tool of KeychainLab.
@main
struct Kclab: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kclab",
        abstract: "Build and inspect KeychainLab worlds: teams, signed apps, devices and websites.",
        discussion: """
            Start with `kclab demo`, or build a world of your own with `kclab world build` and check \
            its bundles with `kclab bundle verify`. The world file format is in docs/world.md.

            Exit status, for every command: 0 success; 1 what was asked was refused, denied or \
            failed (an invalid bundle, a denied site, a stopped process, a call the device could not \
            make); 2 a usage error or no lab (a bad argument or query, an unknown device, nothing \
            started in the state folder). `kclab app call` exits 0 when the device answered: the \
            OSStatus is in its output, as SecItem returns it.
            """,
        version: "kclab \(Kclab.version)",
        subcommands: [
            WorldCommand.self, BundleCommand.self, UpCommand.self, DownCommand.self, StatusCommand.self, ResetCommand.self,
            AppCommand.self, DeviceCommand.self, AASACommand.self, AssetLinksCommand.self, SiteCommand.self, CloudCommand.self,
            SyncCommand.self, FleetCommand.self, AssociationsCommand.self,
            DemoCommand.self,
            WebsitesCommand.self, RestartCommand.self, LogsCommand.self, KeychainCommand.self, ExplainCommand.self, ProfileCommand.self,
            LintCommand.self, TestCommand.self, DoctorCommand.self, ConsoleCommand.self,
        ]
    )

    /// KeychainLab's version: the repository's `VERSION` file, which names its release tags
    /// (`v0.10.0`); a test fails when the two differ.
    static let version = "0.10.0"

    /// Runs the command; a usage error (a missing or malformed argument) exits with status 2, as
    /// every kclab command documents, rather than ArgumentParser's 64.
    static func main() async {
        // Built worlds (keys, profiles), lab state and logs are the user's alone.
        FileModes.restrictToOwner()
        // Arguments that are not UTF-8 would reach the command with U+FFFD in place of their
        // bytes, naming another file or app than the one meant: refused.
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) != nil else {
                FileHandle.standardError.write(Data("error: argument \(index) is not valid UTF-8\n".utf8))
                Foundation.exit(2)
            }
        }
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            var message = fullMessage(for: error)
            if let suggestion = CommandSuggestion.suggestion(for: Array(CommandLine.arguments.dropFirst()), root: Kclab.self) {
                message = "Error: \(suggestion)\n" + message
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
