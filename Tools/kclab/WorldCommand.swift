import ArgumentParser
import Foundation
import LabControl
import WorldBuilder
import WorldFile

/// `kclab world …`
struct WorldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "world",
        abstract: "Check and build world files.",
        subcommands: [Build.self, Check.self]
    )
}

extension WorldCommand {
    /// `kclab world build WORLD --out DIR`
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a world's CAs, team certificates, profiles, signed bundles and TLS identities.",
            discussion: "Building an unchanged world again changes no file. Keys are made once and kept."
        )

        @Argument(help: "The world file (YAML; see docs/world.md).")
        var world: String

        @Option(name: .long, help: "The folder to build into.")
        var out: String

        @Flag(name: .long, help: "List every file written.")
        var verbose = false

        func run() throws {
            let loaded: World
            do {
                loaded = try World.load(contentsOf: URL(fileURLWithPath: world))
            } catch {
                throw fail(error.description)
            }
            let report: BuildReport
            do {
                report = try WorldBuilder(world: loaded, output: URL(fileURLWithPath: out), programs: LabProcesses.binaries).build()
            } catch {
                throw fail(error.description)
            }
            if verbose {
                for path in report.written { say("  \(path)") }
            }
            say(
                "built world '\(loaded.name)' in \(out): \(loaded.teams.count) teams, \(loaded.apps.count) apps, "
                    + "\(loaded.devices.count) devices, \(loaded.websites.flatMap(\.hosts).count) website hosts "
                    + "(\(report.written.count) files written, \(report.unchanged) unchanged)"
            )
        }
    }

    /// `kclab world check WORLD`
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a world file and summarise it, without building anything."
        )

        @Argument(help: "The world file (YAML; see docs/world.md).")
        var world: String

        func run() throws {
            let loaded: World
            do {
                loaded = try World.load(contentsOf: URL(fileURLWithPath: world))
            } catch {
                throw fail(error.description)
            }
            say("world '\(loaded.name)' is valid")
            for team in loaded.teams {
                say("  team \(team.id) \(team.name): \(loaded.apps.filter { $0.team == team.id }.count) apps")
            }
            for device in loaded.devices {
                say("  device \(device.id) (\(device.platform) \(device.osVersion), UDID \(device.udid)): \(device.apps.count) apps")
            }
            for host in loaded.websites.flatMap(\.hosts) {
                let aasa = host.aasa.map { $0.signed ? "signed AASA" : "plain AASA" } ?? "no AASA"
                say("  website \(host.host): \(aasa)")
            }
        }
    }
}
