import Foundation
import Histogram
import Synchronization

/// What a fleet run measured so far, shared by every device task: a latency histogram per
/// operation (HdrHistogram, microseconds, three significant digits), errors by kind, and the
/// writes still on their way to their account's other devices.
final class FleetStats: Sendable {
    /// The longest latency recorded: 10 minutes.
    static let highest: UInt64 = 600_000_000

    private struct State {
        var latencies: [String: Histogram<UInt64>] = [:]
        var errors: [String: Int] = [:]
        /// Each write not yet seen by every other device of its account: when it was made, and
        /// how many devices have still to see it.
        var travelling: [UUID: (made: ContinuousClock.Instant, writer: Int, remaining: Int)] = [:]
        var convergence = Histogram<UInt64>(highestTrackableValue: FleetStats.highest, numberOfSignificantValueDigits: .three)
        var converged = 0
    }

    private let state = Mutex(State())

    /// Records that `operation` took `duration`.
    func record(_ operation: String, _ duration: Duration) {
        state.withLock { state in
            // Past the highest trackable value a latency is not recorded; none lasts 10 minutes.
            _ = state.latencies[operation, default: Histogram(highestTrackableValue: Self.highest, numberOfSignificantValueDigits: .three)]
                .record(Self.microseconds(duration))
        }
    }

    /// Records a failed call of `operation`, by `kind` (an HTTP status, or the error's type).
    func failed(_ operation: String, kind: String) {
        state.withLock { $0.errors["\(operation): \(kind)", default: 0] += 1 }
    }

    /// A write `writer` made at `instant`, which `others` devices have yet to see.
    func written(_ uuid: UUID, by writer: Int, at instant: ContinuousClock.Instant, others: Int) {
        guard others > 0 else { return }
        state.withLock { $0.travelling[uuid] = (instant, writer, others) }
    }

    /// A write that was not saved: nobody will see it.
    func lost(_ uuid: UUID) {
        state.withLock { $0.travelling[uuid] = nil }
    }

    /// Device `device` saw `uuid` at `instant` (its writer's own sighting does not count): once
    /// the last of its account's other devices has, the write has converged.
    func seen(_ uuid: UUID, by device: Int, at instant: ContinuousClock.Instant) {
        state.withLock { state in
            guard var entry = state.travelling[uuid], entry.writer != device else { return }
            _ = state.convergence.record(Self.microseconds(instant - entry.made))
            entry.remaining -= 1
            if entry.remaining == 0 {
                state.travelling[uuid] = nil
                state.converged += 1
            } else {
                state.travelling[uuid] = entry
            }
        }
    }

    /// The writes still travelling.
    var pending: Int { state.withLock { $0.travelling.count } }

    /// Everything measured, as the report gives it.
    func summary(elapsed: Duration) -> (operations: [String: FleetReport.Latency], convergence: FleetReport.Convergence, errors: [String: Int]) {
        state.withLock { state in
            let seconds = max(elapsed / .seconds(1), 0.001)
            let operations = state.latencies.mapValues { histogram in
                FleetReport.Latency(histogram, perSecond: Double(histogram.totalCount) / seconds)
            }
            let convergence = FleetReport.Convergence(
                arrivals: FleetReport.Latency(state.convergence, perSecond: Double(state.convergence.totalCount) / seconds),
                converged: state.converged,
                pending: state.travelling.count
            )
            return (operations, convergence, state.errors)
        }
    }

    static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
    }
}
