import AppIdentity
import ArgumentParser
import AssociationAPI
import Foundation
import LabControl
import ServiceSupport
import SiteAssociation
import WorldFile

/// `kclab associations [--app BUNDLE] [--json]`
struct AssociationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "associations",
        abstract: "List every associated domain associationd verified: its state, reason and next retry.",
        discussion: """
            Read through associationd's admin route, which only kclab's administrator certificate may use. \
            States: approved, denied, pending (retried every 3 hours, up to 8 times, and when the app asks).
            """
    )

    @OptionGroup var lab: LabOptions

    @Option(help: "Only this app (a bundle ID or an app ID).")
    var app: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let records: [AssociationRecord]
        do {
            records = try await Self.records(lab, app: app)
        } catch {
            throw fail("\(error)")
        }
        let names = Self.deviceNames(lab.lab, world: lab.world)
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
                names[record.device] ?? record.device, record.appID.rawValue, record.entry, record.state.rawValue,
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

    /// associationd's records, of every device, through its admin route: of `app` (an app ID or a
    /// bundle ID) and `host` (an entry's domain as written) when given.
    static func records(_ lab: LabOptions, app: String? = nil, host: String? = nil) async throws -> [AssociationRecord] {
        let query = [app.map { "app=\(QueryText.escaped($0))" }, host.map { "host=\(QueryText.escaped($0))" }].compactMap(\.self)
        return try await lab.withAdministrator(of: .associationd) { client in
            try await client.get(
                "/v1/admin/associations" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")),
                as: [AssociationRecord].self,
                decoder: AssociationAPI.decoder()
            )
        }
    }

    /// Device names by UDID, from `world` or else the world file kclab up recorded.
    static func deviceNames(_ lab: LabState, world: String? = nil) -> [String: String] {
        guard let file = lab.worldFile(given: world), let world = try? World.load(contentsOf: file) else { return [:] }
        return Dictionary(world.devices.map { ($0.udid, $0.id) }, uniquingKeysWith: { first, _ in first })
    }
}
