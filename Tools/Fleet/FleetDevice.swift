import AsyncHTTPClient
import Foundation
import KeychainItems
import KeychainSync
import KeychainSyncClient
import KeychainTypes
import ServiceSupport

/// One simulated device: cheap (two tasks and an HTTP client), with a device identity of its own,
/// speaking cloudd's protocol through the same `CloudClient` a real device's sync engine uses
/// (items sealed with the account's key, change tokens, waits). It writes synced passwords at
/// random intervals and keeps waiting on its account's zone, fetching what changed.
struct FleetDevice: Sendable {
    let index: Int
    let cloud: CloudClient
    let client: ServiceClient
    let plan: FleetPlan
    let stats: FleetStats
    let view = SyncView.passwords

    /// Writes until `end`, at random gaps averaging the plan's rate.
    func write(until end: ContinuousClock.Instant) async {
        guard plan.writesPerDeviceMinute > 0 else { return }
        let meanGap = 60 / plan.writesPerDeviceMinute
        while !Task.isCancelled {
            // Exponential gaps: writes arrive as a Poisson process, not in lockstep.
            let gap = -meanGap * log(Double.random(in: Double.ulpOfOne..<1))
            let next = ContinuousClock.now + .milliseconds(Int(gap * 1000))
            guard next < end else { return }
            try? await Task.sleep(until: next)
            let uuid = UUID.timeOrdered()
            let item = KeychainItem(
                keychain: "fleet",
                itemClass: .genericPassword,
                uuid: uuid,
                attributes: ["acct": .string("device-\(index)"), "svce": .string("fleet.keychainlab.test"), "sync": .integer(1)],
                data: Data((0..<plan.secretBytes).map { _ in UInt8.random(in: 0...255) })
            )
            // Travelling from the moment it is written: another device may fetch it before the
            // upload's answer reaches this one.
            let start = ContinuousClock.now
            stats.written(uuid, by: index, at: start, others: othersInAccount)
            do {
                let outcomes = try await cloud.upload([UploadRequest(uuid: uuid, item: item, expectedTag: nil)], view: view)
                stats.record("upload", ContinuousClock.now - start)
                if case .saved = outcomes[uuid] {
                    stats.acknowledged(uuid, account: account)
                } else {
                    stats.lost(uuid)
                    stats.failed("upload", kind: "not saved")
                }
            } catch {
                stats.lost(uuid)
                stats.failed("upload", kind: Self.kind(error))
            }
        }
    }

    /// Waits on the zone and fetches its changes until cancelled, reporting each write it sees.
    func listen() async {
        var token: String? = nil
        var first = true
        while !Task.isCancelled {
            if !first {
                let start = ContinuousClock.now
                do {
                    _ = try await cloud.wait(view: view, since: token, seconds: 25)
                    stats.record("wait", ContinuousClock.now - start)
                } catch {
                    if Task.isCancelled { return }
                    stats.failed("wait", kind: Self.kind(error))
                    try? await Task.sleep(for: .seconds(1))
                    continue
                }
            }
            first = false
            var more = true
            while more, !Task.isCancelled {
                let start = ContinuousClock.now
                do {
                    switch try await cloud.changes(view: view, since: token) {
                    case .changes(let changes, let next, let moreComing):
                        let seen = ContinuousClock.now
                        stats.record("fetch", seen - start)
                        for case .saved(let item) in changes { stats.seen(item.uuid, by: index, at: seen) }
                        token = next
                        more = moreComing
                    case .tokenExpired:
                        token = nil
                    }
                } catch {
                    if Task.isCancelled { return }
                    stats.failed("fetch", kind: Self.kind(error))
                    more = false
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    /// This device's account, by number.
    var account: Int { index / plan.devicesPerAccount }

    /// The other devices of this device's account.
    var othersInAccount: Int {
        let first = (index / plan.devicesPerAccount) * plan.devicesPerAccount
        return min(plan.devices, first + plan.devicesPerAccount) - first - 1
    }

    static func kind(_ error: any Error) -> String {
        if let failure = error as? ServiceClient.Failure { return "HTTP \(failure.status)" }
        // A transport error says what went wrong (connectTimeout, connection reset, …) and holds
        // no secret; it is named by its type and the start of its description.
        if error is HTTPClientError { return String(describing: error) }
        return "\(String(reflecting: type(of: error))) \(String(describing: error).prefix(60))"
    }
}
