import ArgumentParser
import CloudAPI
import DeviceProtocol
import Foundation
import LabControl
import ServiceSupport
import WorldFile

/// `kclab sync …`: iCloud Keychain on the running devices (docs/icloud-keychain.md).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "See iCloud Keychain on the running devices, wait until they agree, or skip a retry's wait.",
        discussion: """
            Each device signed in to an iCloud account keeps its own copy of the account's \
            synchronizable items and syncs it through cloudd, a view (zone) at a time: a write \
            reaches another device only once the writer uploaded it and the other fetched it. \
            kclab device offline|online takes a device's link down and brings it back.
            """,
        subcommands: [Status.self, Wait.self, Retry.self]
    )

    /// The world's devices signed in to iCloud, optionally one device or one account.
    static func devices(_ world: World, device: String?, account: String?) throws -> [WorldFile.Device] {
        let signedIn = world.devices.filter { $0.iCloudAccount != nil }
        if let device {
            guard let found = world.device(device) else { throw fail("the world declares no device '\(device)'", code: 2) }
            guard found.iCloudAccount != nil else { throw fail("\(device) is signed in to no iCloud account, so it syncs nothing") }
            return [found]
        }
        let chosen = account.map { account in signedIn.filter { $0.iCloudAccount == account } } ?? signedIn
        guard !chosen.isEmpty else { throw fail("no device of the world is signed in to \(account ?? "an iCloud account")") }
        return chosen
    }

    static func status(_ lab: LabOptions, _ device: String) throws -> SyncStatus {
        let response = try deviceClient(state: lab.state, device: device).send(DeviceRequest(.sync(.status)))
        if let error = response.error { throw fail(error) }
        guard let status = response.sync else { throw fail("\(device) did not describe its sync state") }
        return status
    }
}

extension SyncCommand {
    /// `kclab sync status [--device D] [--json]`
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Each view of each device: online or not, the change token it fetched up to, changes queued, held while locked, the last error."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "Only this device.", completion: LabCompletion.devices)
        var device: String?

        @Flag(help: "Print one JSON object, by device.")
        var json = false

        func run() async throws {
            let devices = try SyncCommand.devices(try lab.load(), device: device, account: nil)
            var statuses: [String: SyncStatus] = [:]
            for device in devices { statuses[device.id] = try SyncCommand.status(lab, device.id) }
            if json {
                say(try JSONOutput.pretty(statuses))
                return
            }
            for device in devices {
                guard let status = statuses[device.id] else { continue }
                let online = status.views.contains(where: \.online)
                say("\(device.id) (\(status.account)): \(online ? "online" : "offline")\(status.untakenChanges ? ", changes not taken yet" : "")")
                for view in status.views {
                    var line = "  \(view.view): token \(view.token ?? "none"), \(view.outgoing) to upload"
                    if view.uploading { line += ", uploading" }
                    if view.heldWhileLocked > 0 { line += ", \(view.heldWhileLocked) held while locked" }
                    if view.retryPending { line += ", retry pending" }
                    if let error = view.lastError { line += ", last error: \(error)" }
                    say(line)
                }
            }
        }
    }

    /// `kclab sync wait [--account A] [--timeout S]`
    struct Wait: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait until every online device of an account has uploaded its changes and fetched the zones' latest (for tests).",
            discussion: "Exits 1 with what is still unsettled when --timeout passes first."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "Only this account's devices (default: every account's).")
        var account: String?

        @Option(help: "Seconds to wait at most.")
        var timeout: Double = 30

        func run() async throws {
            for line in try await settled() { say(line) }
        }

        /// Waits, then says which devices are in sync; fails with what is not after the timeout.
        func settled() async throws -> [String] {
            let devices = try SyncCommand.devices(try lab.load(), device: nil, account: account)
            let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
            var unsettled: [String] = []
            repeat {
                let (reasons, offline) = try await pending(devices)
                unsettled = reasons
                if unsettled.isEmpty {
                    let online = devices.map(\.id).filter { !offline.contains($0) }
                    let aside = offline.isEmpty ? "" : " (\(offline.joined(separator: ", ")) offline, not waited for)"
                    return ["in sync: \(online.joined(separator: ", "))\(aside)"]
                }
                try await Task.sleep(for: .milliseconds(50))
            } while ContinuousClock.now < deadline
            throw fail("not in sync after \(timeout) s: \(unsettled.joined(separator: "; "))")
        }

        /// What keeps `devices` from agreeing, and which of them are offline.
        private func pending(_ devices: [WorldFile.Device]) async throws -> (reasons: [String], offline: [String]) {
            var tokens: [String: [String: String]] = [:]
            for account in Set(devices.compactMap(\.iCloudAccount)).sorted() {
                let path = "/v1/admin/zones?account=\(CloudCommand.List.escaped(account))"
                let zones = try await lab.withAdministrator(of: .cloudd) { client in
                    try await client.get(path, as: [CloudAPI.ZoneListing].self, decoder: CloudAPI.decoder())
                }
                tokens[account] = Dictionary(zones.map { ($0.view, $0.token) }, uniquingKeysWith: { first, _ in first })
            }
            var reasons: [String] = []
            var offline: [String] = []
            for device in devices {
                let status = try SyncCommand.status(lab, device.id)
                if !status.views.contains(where: \.online) { offline.append(device.id) }
                reasons += status.unsettled(zoneTokens: tokens[status.account] ?? [:]).map { "\(device.id): \($0)" }
            }
            return (reasons, offline)
        }
    }

    /// `kclab sync retry [--device D]`
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Try failed uploads and fetches again now, instead of after CKKS's 30 minutes."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "Only this device.", completion: LabCompletion.devices)
        var device: String?

        func run() async throws {
            for device in try SyncCommand.devices(try lab.load(), device: device, account: nil) {
                let response = try deviceClient(state: lab.state, device: device.id).send(DeviceRequest(.sync(.retry)))
                if let error = response.error { throw fail(error) }
                say("\(device.id): retried")
            }
        }
    }
}
