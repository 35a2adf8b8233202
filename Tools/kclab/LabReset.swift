import CloudAPI
import DeviceProtocol
import Foundation
import KeychainAPI
import LabControl
import NIOHTTP1
import ServiceSupport
import WorldFile

/// `kclab reset` without `--keep-cloud`: every keychain item, the zones of the world's iCloud
/// accounts and every device's iCloud Keychain state, in an order that leaves nothing of one
/// test case for the next (docs/icloud-keychain.md, "Resetting the lab"):
///
/// 1. each running device signed in to an account pauses its engines, once the step under way
///    (an upload, a fetch) has ended, so that none uploads an old record after the erase;
/// 2. keychaind removes every item and every queued sync change;
/// 3. cloudd empties every zone of the world's accounts (a token from before then expires);
/// 4. each paused device forgets its engines (tokens, mirrors, queues, its place in keychaind's
///    feed) and starts afresh; a stopped device's saved state is removed, so it starts afresh.
///
/// If step 2 or 3 fails, the devices resume as they were and the failure is thrown: running the
/// reset again finishes it.
struct LabReset {
    let options: LabOptions

    /// What the reset removed.
    struct Report {
        var items = 0
        /// Every zone of every account, as cloudd answered.
        var zones: [CloudAPI.ZoneErasure] = []
        /// The running devices that forgot their engines, by ID.
        var devices: [String: SyncForgotten] = [:]
        /// The stopped devices whose saved state was removed.
        var stopped: [String] = []
        /// Devices signed in to an account that sync nothing (a lab without cloudd), with why.
        var notSyncing: [String: String] = [:]
    }

    /// The world's iCloud accounts: every one a device may be signed in to, and those its devices
    /// are signed in to now.
    static func accounts(declared: World, signedIn: World) -> [String] {
        Set(declared.devices.flatMap(\.signInAccounts) + signedIn.devices.compactMap(\.iCloudAccount)).sorted()
    }

    func run() async throws -> Report {
        let lab = options.lab
        guard let file = lab.worldFile(given: options.world) else {
            throw LabFailure(
                "kclab reset needs the world to find its iCloud accounts and devices, and \(options.state) records none: "
                    + "give --world FILE, or --keep-cloud to remove the keychain items only"
            )
        }
        let declared = try World.load(contentsOf: file)
        let signedIn = lab.signedIn(declared)
        let accounts = Self.accounts(declared: declared, signedIn: signedIn)
        if !accounts.isEmpty, options.cloudd == nil, SiteRecord.endpointURL(lab.clouddEndpoint) == nil {
            throw LabFailure(
                "cloudd is not running in \(options.state), so the zones of \(accounts.joined(separator: ", ")) cannot be emptied: "
                    + "give --cloudd URL, or --keep-cloud to remove the keychain items only"
            )
        }
        var report = Report()
        var paused: [String] = []
        var notRunning: [String] = []
        for device in signedIn.devices where device.iCloudAccount != nil {
            let answer: DeviceResponse
            do {
                answer = try DeviceClient(state: lab, device: device.id).send(DeviceRequest(.sync(.pause)))
            } catch {
                notRunning.append(device.id)
                continue
            }
            if let error = answer.error {
                report.notSyncing[device.id] = error
            } else {
                paused.append(device.id)
            }
        }
        do {
            report.items = try await options.withAdministrator { client in
                try await client.send(.POST, "/v1/admin/reset", [String: String](), as: KeychainAPI.ResetAnswer.self).removed
            }
            if !accounts.isEmpty {
                report.zones = try await options.withAdministrator(of: .cloudd) { client in
                    try await client.send(
                        .POST,
                        "/v1/admin/zones/erase",
                        CloudAPI.EraseRequest(accounts: accounts),
                        as: [CloudAPI.ZoneErasure].self,
                        decoder: CloudAPI.decoder()
                    )
                }
            }
        } catch {
            let resumed = paused.filter { device in (try? DeviceClient(state: lab, device: device).send(DeviceRequest(.sync(.resume)))) != nil }
            throw LabFailure(
                "\(error)\nthe devices' iCloud Keychains resumed as they were (\(resumed.joined(separator: ", "))); run kclab reset again"
            )
        }
        var failures: [String] = []
        for device in paused {
            do {
                let answer = try DeviceClient(state: lab, device: device).send(DeviceRequest(.sync(.reset)))
                if let error = answer.error { throw LabFailure(error) }
                report.devices[device] = answer.sync?.forgotten ?? SyncForgotten()
            } catch {
                failures.append("\(device): \(error)")
            }
        }
        for device in notRunning {
            // A device that is not running starts afresh from a missing state, as at first sign-in.
            let saved = lab.device(device).appending(path: ICloudSignIn.keychainStateFileName)
            if (try? FileManager.default.removeItem(at: saved)) != nil { report.stopped.append(device) }
        }
        guard failures.isEmpty else {
            throw LabFailure(
                "the items and zones are gone, but these devices did not forget their iCloud Keychain: \(failures.joined(separator: "; "))"
            )
        }
        return report
    }
}

extension LabReset.Report {
    /// What `kclab reset` prints: the items, then the zones, then the devices.
    var lines: [String] {
        var lines = ["removed \(items) items"]
        if !zones.isEmpty {
            let accounts = Set(zones.map(\.account)).sorted()
            let erased = zones.filter { $0.changes > 0 }
            let records = zones.reduce(0) { $0 + $1.records }
            let changes = zones.reduce(0) { $0 + $1.changes }
            lines.append(
                "removed \(Self.count(records, "cloud record")) and \(Self.count(changes, "change")) from \(erased.count) of \(zones.count) zones "
                    + "of \(Self.count(accounts.count, "account")) (\(accounts.joined(separator: ", ")))"
            )
        }
        if !devices.isEmpty {
            let total = devices.values.reduce(SyncForgotten()) { total, one in
                SyncForgotten(
                    mirrored: total.mirrored + one.mirrored,
                    queued: total.queued + one.queued,
                    held: total.held + one.held,
                    tokens: total.tokens + one.tokens
                )
            }
            lines.append(
                "reset the iCloud Keychain of \(Self.count(devices.count, "device")) (\(devices.keys.sorted().joined(separator: ", "))): "
                    + "forgot \(Self.count(total.mirrored, "mirrored record")), \(Self.count(total.queued, "queued change")), "
                    + "\(total.held) held until unlock, \(Self.count(total.tokens, "change token"))"
            )
        }
        if !stopped.isEmpty {
            lines.append(
                "removed the saved iCloud Keychain state of \(Self.count(stopped.count, "stopped device")) (\(stopped.sorted().joined(separator: ", ")))"
            )
        }
        return lines
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
