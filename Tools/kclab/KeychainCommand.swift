import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainAPI
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
                --account, every device's keychain and every iCloud account's.
                """
        )

        @Option(help: "The state folder of kclab up.")
        var state = "state"

        @Option(help: "One device's keychain, and its iCloud account's.")
        var device: String?

        @Option(help: "One iCloud account's keychain (its synchronizable items).")
        var account: String?

        @Option(help: "Only this access group.")
        var group: String?

        @Flag(help: "Show each item's data too (the secret).")
        var reveal = false

        @Flag(help: "Print JSON.")
        var json = false

        @Option(help: "The world file (default: the one kclab up recorded; the compose lab records none).")
        var world: String?

        @Option(help: "keychaind's URL (default: from the lab's endpoint file; https://keychaind:7701 in the compose lab).")
        var keychaind: String?

        func validate() throws {
            if device != nil, account != nil { throw ValidationError("give --device or --account, not both") }
        }

        func run() async throws {
            let lab = LabState(root: URL(fileURLWithPath: state))
            let listing: KeychainAPI.AdminItems
            do {
                let keychains = try keychains(lab)
                guard let endpoint = keychaind ?? SiteRecord.endpointURL(lab.keychaindEndpoint) else {
                    throw LabFailure("keychaind is not running in \(state); start the lab with kclab up")
                }
                let client = ServiceClient(baseURL: endpoint, tls: try TLSIdentities.administratorClient(world: lab.builtWorld))
                var query = keychains.map { "keychain=\(Self.escaped($0))" }
                if let group { query.append("group=\(Self.escaped(group))") }
                if reveal { query.append("reveal=true") }
                do {
                    listing = try await client.get(
                        "/v1/admin/items?" + query.joined(separator: "&"),
                        as: KeychainAPI.AdminItems.self,
                        decoder: KeychainAPI.AdminItems.decoder()
                    )
                } catch {
                    await client.shutdown()
                    throw error
                }
                await client.shutdown()
            } catch {
                throw fail("\(error)")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                say(String(decoding: try encoder.encode(listing), as: UTF8.self))
                return
            }
            print(listing)
        }

        /// The keychains to list: the device's and its account's, the account's, or every one.
        private func keychains(_ lab: LabState) throws -> [String] {
            guard let file = world ?? LabRecord.read(lab)?.worldFile else { throw LabFailure("nothing was started in \(state); run kclab up") }
            let world = try World.load(contentsOf: URL(fileURLWithPath: file))
            if let account { return ["icloud:\(account)"] }
            if let device {
                guard let declared = world.device(device) else {
                    throw LabFailure("no device \(device) in the world: one of \(world.devices.map(\.id).joined(separator: ", "))")
                }
                return ["device:\(declared.udid)"] + (declared.iCloudAccount.map { ["icloud:\($0)"] } ?? [])
            }
            let accounts = Set(world.devices.compactMap(\.iCloudAccount)).sorted()
            return world.devices.map { "device:\($0.udid)" } + accounts.map { "icloud:\($0)" }
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
            for (group, count) in listing.counts.sorted(by: { $0.key < $1.key }) { say("\(count) in \(group)") }
            if listing.items.isEmpty { say("no items") }
        }

        private static func escaped(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~:@"))) ?? value
        }
    }
}
