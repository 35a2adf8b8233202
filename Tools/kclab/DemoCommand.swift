import AppIdentity
import ArgumentParser
import CMSSupport
import Foundation
import LabControl
import WorldBuilder
import WorldFile

/// `kclab demo`: builds the demo world and shows what each app's signature lets it do.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build the demo world and print each app's access groups and associated domains."
    )

    @Option(name: .long, help: "The world file.")
    var world = "Tools/worlds/demo.yaml"

    @Option(name: .long, help: "The folder to build into.")
    var out = ".demo/world"

    func run() throws {
        let loaded: World
        let report: BuildReport
        do {
            loaded = try World.load(contentsOf: URL(fileURLWithPath: world))
            report = try WorldBuilder(world: loaded, output: URL(fileURLWithPath: out), programs: LabProcesses.binaries).build()
        } catch let error as WorldError {
            throw fail(error.description)
        } catch {
            throw fail("\(error)")
        }
        say("KeychainLab demo world '\(loaded.name)', built in \(out) (\(report.written.count) files written, \(report.unchanged) unchanged)")
        say("Each app's access groups come from its verified signature, in Apple's order:")
        say("keychain-access-groups, then the application identifier, then application groups.")
        let layout = WorldLayout(root: report.output)
        let verifier = BundleVerifier(trust: try TrustAnchors.load(layout.trustDirectory.path))
        for team in loaded.teams {
            say()
            say("Team \(team.id) (\(team.name))")
            for app in loaded.apps where app.team == team.id {
                let verdict = verifier.verify(bundleAt: layout.url(WorldLayout.bundle(app.bundleID)))
                say("  \(app.name) [\(app.bundleID)]")
                guard verdict.valid else {
                    say("    REFUSED at install:")
                    for reason in verdict.reasons { say("      - \(reason)") }
                    continue
                }
                say("    app ID:            \(verdict.appID ?? "?")")
                for (index, group) in verdict.accessGroups.enumerated() {
                    let label = index == 0 ? "access groups:" : ""
                    let note = index == 0 ? "   (default for SecItemAdd)" : ""
                    say("    \(label.padding(toLength: 18, withPad: " ", startingAt: 0)) \(index + 1). \(group)\(note)")
                }
                if !verdict.associatedDomains.isEmpty {
                    say("    associated domains: \(verdict.associatedDomains.joined(separator: ", "))")
                }
            }
        }
        say()
        say("Devices:")
        for device in loaded.devices {
            say("  \(device.id): \(device.platform) \(device.osVersion), iCloud \(device.iCloudAccount ?? "none"), \(device.apps.count) apps")
        }
    }
}
