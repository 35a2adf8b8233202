import ArgumentParser
import AssociationAPI
import AssociationService
import Foundation
import LabControl
import SiteAssociation
import WorldFile

/// `kclab associations --state DIR [--app BUNDLE] [--json]`
struct AssociationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "associations",
        abstract: "List every associated domain associationd verified: its state, reason and next retry.",
        discussion: "States: approved, denied, pending (retried every 3 hours, up to 8 times, and when the app asks)."
    )

    @Option(help: "The state folder of kclab up.")
    var state = "state"

    @Option(help: "Only this app (a bundle ID or an app ID).")
    var app: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "The world file, to name devices (default: the one kclab up recorded; the compose lab records none).")
    var world: String?

    func run() throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        let file = lab.associationd.appending(path: "associations.sqlite")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw fail("no associations in \(state): start a world with kclab up (associationd keeps them in \(file.path))", code: 2)
        }
        var records = try AssociationStore(directory: lab.associationd).records()
        if let app {
            records = records.filter { $0.appID == app || $0.appID.hasSuffix("." + app) }
        }
        let names = Self.deviceNames(lab, world: world)
        if json {
            let encoder = AssociationAPI.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            say(String(decoding: try encoder.encode(records), as: UTF8.self))
            return
        }
        guard !records.isEmpty else {
            say("no associations\(app.map { " for \($0)" } ?? "")")
            return
        }
        let formatter = ISO8601DateFormatter()
        let rows = records.map { record in
            [
                names[record.device] ?? record.device, record.appID, record.entry, record.state.rawValue,
                record.nextRetry.map { formatter.string(from: $0) } ?? "-", record.reason,
            ]
        }
        let header = ["DEVICE", "APP", "ENTRY", "STATE", "NEXT RETRY", "REASON"]
        let widths = (0..<5).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let padded = (0..<5).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            say((padded + [row[5]]).joined(separator: "  "))
        }
    }

    /// Device names by UDID, from `world` or else the world file kclab up recorded.
    static func deviceNames(_ lab: LabState, world: String? = nil) -> [String: String] {
        guard let file = lab.worldFile(given: world), let world = try? World.load(contentsOf: file) else { return [:] }
        return Dictionary(world.devices.map { ($0.udid, $0.id) }, uniquingKeysWith: { first, _ in first })
    }
}
