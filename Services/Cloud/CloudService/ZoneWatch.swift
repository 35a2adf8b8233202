import CloudZones
import Foundation
import Synchronization

/// Who waits for which zone to change: the lab's stand-in for Apple's push. A write wakes every
/// waiter of its zone; a waiter gives up when its time runs out. Each zone counts its changes,
/// so a change between a caller's look at the zone and its wait is not missed.
final class ZoneWatch: Sendable {
    private struct Waiter {
        let id: UUID
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var versions: [ZoneID: Int] = [:]
        var waiters: [ZoneID: [Waiter]] = [:]
    }

    private let state = Mutex(State())

    /// How many changes the zone has had since cloudd started.
    func version(_ zone: ZoneID) -> Int {
        state.withLock { $0.versions[zone, default: 0] }
    }

    /// Wakes the zone's waiters: it changed.
    func changed(_ zone: ZoneID) {
        let woken = state.withLock { state in
            state.versions[zone, default: 0] += 1
            return state.waiters.removeValue(forKey: zone) ?? []
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Waits until the zone changes past `version` (true) or `timeout` passes (false).
    func wait(_ zone: ZoneID, after version: Int, timeout: Duration) async -> Bool {
        let id = UUID()
        return await withCheckedContinuation { continuation in
            let already = state.withLock { state in
                guard state.versions[zone, default: 0] == version else { return true }
                state.waiters[zone, default: []].append(Waiter(id: id, continuation: continuation))
                return false
            }
            if already {
                continuation.resume(returning: true)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { state -> Waiter? in
                    guard let index = state.waiters[zone]?.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters[zone]?.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}
