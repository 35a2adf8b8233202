import Foundation
import Histogram
import Synchronization

/// What a fleet run measured so far, shared by every device task: its ``FleetTally`` (latency
/// histograms, errors by kind, convergence), the writes still on their way to their account's
/// other devices, and the writes cloudd acknowledged.
final class FleetStats: Sendable {
    private struct State {
        var tally = FleetTally()
        /// Each write not yet seen by every other device of its account: when it was made, and
        /// how many devices have still to see it.
        var travelling: [UUID: (made: ContinuousClock.Instant, writer: Int, remaining: Int, afterStart: Bool)] = [:]
        /// The devices' start steps not yet over (``expectStarts(_:)``), and when the last ended.
        var starting = 0
        var started: ContinuousClock.Instant?
        /// The writes cloudd acknowledged, by account.
        var acknowledged: [Int: [UUID]] = [:]
    }

    private let state = Mutex(State())

    /// Records that `operation` took `duration`.
    func record(_ operation: String, _ duration: Duration) {
        state.withLock { state in
            // Past the highest trackable value a latency is not recorded; none lasts 10 minutes.
            _ = state.tally.latencies[operation, default: FleetTally.histogram()].record(Self.microseconds(duration))
        }
    }

    /// Records a failed call of `operation`, by `kind` (an HTTP status, or the error's type).
    func failed(_ operation: String, kind: String) {
        state.withLock { $0.tally.errors["\(operation): \(kind)", default: 0] += 1 }
    }

    /// A SecItem call of `function` answered with the OSStatus named `status`.
    func answered(_ function: String, status: String) {
        state.withLock { $0.tally.statuses[function, default: [:]][status, default: 0] += 1 }
    }

    /// The devices' start has `steps` more steps (a device's first fetch, its app's setup with
    /// keychaind, its install with associationd), each ended by ``startEnded()``, done or given up.
    func expectStarts(_ steps: Int) {
        state.withLock { $0.starting += steps }
    }

    /// A start step ended; once the last has, writes made from then on are also measured apart
    /// (``FleetTally/afterStart``): the fleet's steady state, without the storm of its start.
    func startEnded() {
        state.withLock { state in
            state.starting -= 1
            if state.starting == 0 { state.started = ContinuousClock.now }
        }
    }

    /// A write `writer` made at `instant`, which `others` devices have yet to see.
    func written(_ uuid: UUID, by writer: Int, at instant: ContinuousClock.Instant, others: Int) {
        guard others > 0 else { return }
        state.withLock { state in
            let afterStart = state.started.map { instant >= $0 } ?? false
            state.travelling[uuid] = (instant, writer, others, afterStart)
        }
    }

    /// cloudd acknowledged `uuid`, written to `account`'s zone: it must never be lost.
    func acknowledged(_ uuid: UUID, account: Int) {
        state.withLock { $0.acknowledged[account, default: []].append(uuid) }
    }

    /// When the last start step ended; nil while one has not.
    var startedAt: ContinuousClock.Instant? { state.withLock { $0.started } }

    /// Every acknowledged write, by account.
    var acknowledgedWrites: [Int: [UUID]] { state.withLock { $0.acknowledged } }

    /// A write that was not saved: nobody will see it.
    func lost(_ uuid: UUID) {
        state.withLock { $0.travelling[uuid] = nil }
    }

    /// Device `device` saw `uuid` at `instant` (its writer's own sighting does not count): once
    /// the last of its account's other devices has, the write has converged.
    func seen(_ uuid: UUID, by device: Int, at instant: ContinuousClock.Instant) {
        state.withLock { state in
            guard var entry = state.travelling[uuid], entry.writer != device else { return }
            _ = state.tally.convergence.record(Self.microseconds(instant - entry.made))
            if entry.afterStart { _ = state.tally.afterStart.record(Self.microseconds(instant - entry.made)) }
            entry.remaining -= 1
            if entry.remaining == 0 {
                state.travelling[uuid] = nil
                state.tally.converged += 1
            } else {
                state.travelling[uuid] = entry
            }
        }
    }

    /// Everything measured so far.
    var tally: FleetTally {
        state.withLock { state in
            var tally = state.tally
            tally.pending = state.travelling.count
            return tally
        }
    }

    static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
    }
}
