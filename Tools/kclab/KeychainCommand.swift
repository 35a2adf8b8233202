import AppIdentity
import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import LabControl
import ServiceSupport
import WorldFile

/// `kclab keychain list`: a running lab's items as the operator sees them.
struct KeychainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain",
        abstract: "Inspect a running lab's keychains as its operator.",
        subcommands: [List.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List items' metadata (class, group, account, service, server, sync, protection, dates) and a count per group.",
            discussion: """
                Read through keychaind's admin route, which only kclab's administrator certificate (written by \
                kclab world build) may use. Data is never shown unless --reveal is given. Without --device or \
                --account, every device's keychains. Each device keeps its own copy of its iCloud account's \
                synchronizable items (SYNC yes): --account lists those of the account's devices.
                """
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "One device's keychains (a Mac's login keychain too).")
        var device: String?

        @Option(help: "The synchronizable items of one iCloud account's devices, each device's copy.")
        var account: String?

        @Option(help: "Only this access group.")
        var group: String?

        @Flag(help: "Show each item's data too (the secret).")
        var reveal = false

        @Flag(help: "Print JSON.")
        var json = false

        func validate() throws {
            if device != nil, account != nil { throw ValidationError("give --device or --account, not both") }
        }

        func run() async throws {
            var listing: KeychainAPI.AdminItems
            do {
                var query = try keychains(lab.load()).map { "keychain=\(QueryText.escaped($0))" }
                if let group { query.append("group=\(QueryText.escaped(group))") }
                if reveal { query.append("reveal=true") }
                listing = try await lab.withAdministrator { client in
                    try await client.get(
                        "/v1/admin/items?" + query.joined(separator: "&"),
                        as: KeychainAPI.AdminItems.self,
                        decoder: KeychainAPI.AdminItems.decoder()
                    )
                }
            } catch {
                throw fail("\(error)")
            }
            if account != nil { listing = listing.synchronizableOnly }
            if json {
                say(try JSONOutput.pretty(listing, isoDates: true))
                return
            }
            print(listing)
        }

        /// The keychains to list: the device's (a Mac's login keychain too), the data-protection
        /// keychains of the account's devices, or every one.
        private func keychains(_ world: World) throws -> [String] {
            if let account {
                let devices = world.devices.filter { $0.iCloudAccount == account }
                guard !devices.isEmpty else { throw LabFailure("no device of the world is signed in to \(account)") }
                return devices.map { KeychainName.device($0.udid).rawValue }
            }
            if let device {
                guard let declared = world.device(device) else {
                    throw LabFailure("no device \(device) in the world: one of \(world.devices.map(\.id).joined(separator: ", "))")
                }
                return Self.ownKeychains(declared)
            }
            return world.devices.flatMap(Self.ownKeychains)
        }

        /// A device's own keychains: its data-protection keychain, and a Mac's login keychain.
        private static func ownKeychains(_ device: WorldFile.Device) -> [String] {
            [KeychainName.device(device.udid).rawValue] + (device.platform == .macos ? [KeychainName.login(device.udid).rawValue] : [])
        }

        private func print(_ listing: KeychainAPI.AdminItems) {
            let columns = ["CLASS", "GROUP", "ACCOUNT", "SERVICE/SERVER", "SYNC", "PROTECTION", "MODIFIED"] + (reveal ? ["DATA"] : [])
            var rows = [columns]
            for item in listing.items.sorted(by: { ($0.group, $0.account ?? "") < ($1.group, $1.account ?? "") }) {
                var row = [
                    item.itemClass, item.group, item.account ?? "-", item.service ?? item.server ?? "-", item.synchronizable ? "yes" : "no",
                    item.protection ?? "-", item.modified?.formatted(.iso8601) ?? "-",
                ]
                if reveal { row.append(item.data.map { String(data: $0, encoding: .utf8) ?? $0.base64EncodedString() } ?? "-") }
                rows.append(row)
            }
            let widths = columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                say(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
            }
            say("")
            for (group, count) in listing.counts.sorted(by: { $0.key < $1.key }) {
                // A Mac's login keychain has no groups: its items are counted as the keychain's.
                say("\(count) in \(group.isEmpty ? "the login keychain" : group)")
            }
            if listing.items.isEmpty { say("no items") }
        }
    }
}
