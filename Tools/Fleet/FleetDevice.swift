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
    /// Its app, when the plan makes SecItem calls, association checks or web credential calls.
    let app: FleetDeviceApp?
    let plan: FleetPlan
    let stats: FleetStats
    let view = SyncView.passwords

    /// Writes until `end`, at random gaps averaging the plan's rate; while offline, keeps its
    /// writes and uploads them in one batch once back.
    func write(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        guard plan.writesPerDeviceMinute > 0 else { return }
        let window = offlineWindow(from: start)
        var held: [UploadRequest] = []
        while !Task.isCancelled {
            let next = ContinuousClock.now + FleetPlan.gap(perMinute: plan.writesPerDeviceMinute)
            if let window, !held.isEmpty, next >= window.upperBound || next >= end {
                try? await Task.sleep(until: window.upperBound)
                await upload(held)
                held = []
            }
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
            stats.written(uuid, by: index, at: ContinuousClock.now, others: othersInAccount)
            let request = UploadRequest(uuid: uuid, item: item, expectedTag: nil)
            if let window, window.contains(ContinuousClock.now) {
                held.append(request)
            } else {
                await upload([request])
            }
        }
    }

    /// Uploads `batch` as one atomic batch and records what became of each write.
    private func upload(_ batch: [UploadRequest]) async {
        let start = ContinuousClock.now
        do {
            let outcomes = try await cloud.upload(batch, view: view)
            stats.record("upload", ContinuousClock.now - start)
            for request in batch {
                if case .saved = outcomes[request.uuid] {
                    stats.acknowledged(request.uuid, account: account)
                } else {
                    stats.lost(request.uuid)
                    stats.failed("upload", kind: "not saved")
                }
            }
        } catch {
            for request in batch { stats.lost(request.uuid) }
            stats.failed("upload", kind: Self.kind(error))
        }
    }

    /// Waits on the zone and fetches its changes until cancelled, reporting each write it sees;
    /// while offline does neither, and once back catches up from its token (`catch-up`: from
    /// coming back to having everything).
    func listen(from start: ContinuousClock.Instant) async {
        let window = offlineWindow(from: start)
        var token: String? = nil
        var first = true
        var starting = true
        // A wait or fetch that failed (a connection refused or timed out, a call past its
        // deadline) is tried again after a growing pause, as a device's push connection does.
        var backoff = FleetBackoff(first: Self.firstReconnectPause, longest: Self.longestReconnectPause)
        while !Task.isCancelled {
            var back: ContinuousClock.Instant? = nil
            if let window, window.contains(ContinuousClock.now) {
                try? await Task.sleep(until: window.upperBound)
                back = window.upperBound
            } else if !first {
                let begun = ContinuousClock.now
                // A wait ends by the time the device goes offline.
                let untilOffline = window.map { $0.lowerBound - begun }.flatMap { $0 > .zero ? $0 : nil }
                let longest = plan.waitSeconds
                let seconds = untilOffline.map { max(1, min(longest, Int(($0 / .seconds(1)).rounded(.up)))) } ?? longest
                do {
                    _ = try await cloud.wait(view: view, since: token, seconds: seconds)
                    stats.record("wait", ContinuousClock.now - begun)
                } catch {
                    if Task.isCancelled { return }
                    stats.failed("wait", kind: Self.kind(error))
                    try? await Task.sleep(for: backoff.pause())
                    continue
                }
            }
            first = false
            if await fetch(&token) {
                backoff.reset()
                if starting {
                    starting = false
                    stats.startEnded()
                }
                if let back { stats.record("catch-up", ContinuousClock.now - back) }
            } else {
                try? await Task.sleep(for: backoff.pause())
            }
        }
    }

    /// Fetches the zone's changes past `token` until none are left; false when a call failed.
    private func fetch(_ token: inout String?) async -> Bool {
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
                if Task.isCancelled { return false }
                stats.failed("fetch", kind: Self.kind(error))
                return false
            }
        }
        return true
    }

    /// The first pause before a device tries a failed wait or fetch again, and the longest.
    static let firstReconnectPause = Duration.seconds(1)
    static let longestReconnectPause = Duration.seconds(30)

    /// When this device is offline, if it is one that goes offline.
    func offlineWindow(from start: ContinuousClock.Instant) -> Range<ContinuousClock.Instant>? {
        guard let offline = plan.offline, offline.includes(index) else { return nil }
        let from = start + .seconds(offline.atSeconds)
        return from..<(from + .seconds(offline.seconds))
    }

    /// The steps of this device's start (``FleetStats/expectStarts(_:)``): its first fetch, and
    /// its app's setup with keychaind and install with associationd when it has them.
    var startSteps: Int {
        1 + (app == nil ? 0 : 1) + (app?.associations == nil ? 0 : 1)
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
