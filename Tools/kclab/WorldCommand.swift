import AppIdentity
import ArgumentParser
import Foundation
import LabControl
import LabErrors
import SiteAssociation
import WorldBuilder
import WorldFile

/// `kclab world …`
struct WorldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "world",
        abstract: "Check, build, import and draw world files.",
        subcommands: [Build.self, Check.self, Import.self, Graph.self]
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
                let count = error.all.count
                throw fail(error.description + (count > 1 ? "\n\(count) errors" : ""))
            }
            let (errors, warnings) = Self.laterFailures(loaded)
            for warning in warnings { warn("warning: \(warning)") }
            guard errors.isEmpty else { throw fail(errors.joined(separator: "\n")) }
            say("world '\(loaded.name)' is valid")
            for team in loaded.teams {
                let builds = loaded.apps.filter { $0.team == team.id }
                let apps = Set(builds.map(\.bundleID)).count
                say("  team \(team.id) \(team.name): \(apps) apps\(builds.count > apps ? " (\(builds.count) builds)" : "")")
            }
            for device in loaded.devices {
                say("  device \(device.id) (\(device.platform) \(device.osVersion), UDID \(device.udid)): \(device.apps.count) apps")
            }
            for host in loaded.websites.flatMap(\.hosts) {
                let aasa = host.aasa.map { $0.signed ? "signed AASA" : "plain AASA" } ?? "no AASA"
                say("  website \(host.host): \(aasa)")
            }
        }

        /// What the file allows but fails later: a program KeychainLab did not build (an error:
        /// `world build` stops there), and what installs or verifies with a refusal (warnings: a
        /// world may mean them, to show the refusal): an app group its team did not register, an
        /// associated-domains entry that is not one (a misspelled service), a group list with an
        /// element that is not text, an app without a profile on an iOS device.
        static func laterFailures(_ world: World) -> (errors: [String], warnings: [String]) {
            var errors: [String] = []
            var warnings: [String] = []
            let programs = LabProcesses.binaries
            for app in world.apps {
                if let program = app.program, app.bundleID != World.browserBundleID,
                    !FileManager.default.isExecutableFile(atPath: programs.appending(path: program).path)
                {
                    errors.append("\(app.bundleID): no program '\(program)' in \(programs.path) (KeychainLab's programs, built by swift build)")
                }
                for (group, owner) in world.unregisteredAppGroups(of: app) {
                    let why = owner.map { "team \($0) registers it, not \(app.team.rawValue)" } ?? "no team registers it (appGroups)"
                    warnings.append("\(app.bundleID) claims app group \(group), but \(why): it will be refused at install (entitlement-not-allowed)")
                }
                let iPhones = world.devices.filter { $0.platform == .ios && app.platform == .ios && $0.apps.contains(app.bundleID) }.map(\.id)
                if !app.profile.exists, !iPhones.isEmpty {
                    warnings.append(
                        "\(app.bundleID) has no profile, so \(iPhones.joined(separator: ", ")) will refuse it (profile-required): only a Mac installs it"
                    )
                }
                for key in [EntitlementKey.keychainAccessGroups, EntitlementKey.applicationGroups] {
                    if case .array = app.entitlements[key], app.entitlements[key]?.strings == nil {
                        warnings.append("\(app.bundleID): \(key) holds an element that is not text, so securityd ignores the whole entitlement")
                    }
                }
                for entry in app.entitlements.associatedDomains {
                    do {
                        _ = try AssociatedDomain(entry)
                    } catch {
                        warnings.append("\(app.bundleID): associated domain \(error.description); associationd will refuse it")
                    }
                }
            }
            return (errors, warnings)
        }
    }
}
