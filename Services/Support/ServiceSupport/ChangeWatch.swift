import Foundation
import Synchronization

/// Who waits for which thing to change (a cloudd zone: the lab's stand-in for Apple's push; a
/// device's queue of sync changes in keychaind). A change wakes every waiter of its key; a
/// waiter gives up when its time runs out. Each key counts its changes, so a change between a
/// caller's look and its wait is not missed.
public final class ChangeWatch<Key: Hashable & Sendable>: Sendable {
    private struct Waiter {
        let id: UUID
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var versions: [Key: Int] = [:]
        /// Changes of every key at once (``changedEverything()``).
        var epoch = 0
        var waiters: [Key: [Waiter]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// How many changes the key has had since the watch began.
    public func version(_ zone: Key) -> Int {
        state.withLock { $0.versions[zone, default: 0] + $0.epoch }
    }

    /// Wakes the key's waiters: it changed.
    public func changed(_ zone: Key) {
        let woken = state.withLock { state in
            state.versions[zone, default: 0] += 1
            return state.waiters.removeValue(forKey: zone) ?? []
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Wakes every waiter of every key: any of them may have changed unseen (cloudd's feed from
    /// the other replicas was lost and is back), so each looks again.
    public func changedEverything() {
        let woken = state.withLock { state in
            state.epoch += 1
            defer { state.waiters.removeAll() }
            return state.waiters.values.flatMap { $0 }
        }
        for waiter in woken { waiter.continuation.resume(returning: true) }
    }

    /// Waits until the key changes past `version` (true) or `timeout` passes (false).
    public func wait(_ zone: Key, after version: Int, timeout: Duration) async -> Bool {
        let id = UUID()
        return await withCheckedContinuation { continuation in
            let already = state.withLock { state in
                guard state.versions[zone, default: 0] + state.epoch == version else { return true }
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
