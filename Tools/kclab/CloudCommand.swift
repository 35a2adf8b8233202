import ArgumentParser
import CloudAPI
import Foundation
import ServiceSupport

/// `kclab cloud …`: what cloudd holds for iCloud Keychain.
struct CloudCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud",
        abstract: "Look at cloudd's zones, as the lab's operator (docs/icloud-keychain.md).",
        subcommands: [List.self]
    )
}

extension CloudCommand {
    /// `kclab cloud list --account A [--view|--zone V] [--json]`
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List an account's zones: each view's latest change token and its records (UUID, change tag, size), never a payload."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "The iCloud account, such as alice@example.com.")
        var account: String

        @Option(name: [.customLong("view"), .customLong("zone")], help: "Only this view (zone): Applications, CreditCards, Passwords or Backstop.")
        var view: String?

        @Flag(help: "Print one JSON array.")
        var json = false

        func run() async throws {
            var path = "/v1/admin/zones?account=\(Self.escaped(account))"
            if let view { path += "&view=\(Self.escaped(view))" }
            let zones = try await lab.withAdministrator(of: .cloudd) { client in
                try await client.get(path, as: [CloudAPI.ZoneListing].self, decoder: CloudAPI.decoder())
            }
            if json {
                say(String(decoding: try CloudAPI.encoder().encode(zones), as: UTF8.self))
                return
            }
            for zone in zones {
                say("\(zone.account)/\(zone.view): token \(zone.token), \(zone.records.count) \(zone.records.count == 1 ? "record" : "records")")
                for record in zone.records {
                    say("  \(record.uuid.uuidString)  tag \(record.changeTag)  \(record.size) bytes")
                }
            }
        }

        static func escaped(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
        }
    }
}
