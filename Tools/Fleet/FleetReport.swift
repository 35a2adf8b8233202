import Foundation
import Histogram

/// A fleet run's figures, for people (``lines``) and for CI (JSON).
public struct FleetReport: Sendable, Codable {
    public var plan: FleetPlan
    public var accounts: Int
    public var elapsedSeconds: Double
    /// Per operation (`upload`, `fetch`, `wait`): calls, calls a second, latency percentiles.
    public var operations: [String: Latency]
    /// A write's arrival at each other device of its account, and how many writes reached all.
    public var convergence: Convergence
    /// Failed calls, by operation and kind (an HTTP status, keychaind's problem code, or the
    /// error's type).
    public var errors: [String: Int]
    /// SecItem calls keychaind answered, by function and OSStatus name (`errSecItemNotFound` is
    /// an answer, not a failure).
    public var statuses: [String: [String: Int]]
    /// The fleet process's resident memory, before the devices started and at the end.
    public var memory: Memory
    /// After the run: the acknowledged writes each account's zone still holds.
    public var audit: Audit
    /// The faults caused, with what was done, in order.
    public var faults: [FaultOutcome]

    /// The report of `tally`, a run of `plan` that lasted `elapsedSeconds`.
    public init(plan: FleetPlan, tally: FleetTally, elapsedSeconds: Double, faults: [FaultOutcome]) {
        self.plan = plan
        accounts = plan.accounts
        self.elapsedSeconds = elapsedSeconds
        let seconds = max(elapsedSeconds, 0.001)
        operations = tally.latencies.mapValues { Latency($0, perSecond: Double($0.totalCount) / seconds) }
        convergence = Convergence(
            arrivals: Latency(tally.convergence, perSecond: Double(tally.convergence.totalCount) / seconds),
            afterStart: tally.afterStart.totalCount == 0
                ? nil : Latency(tally.afterStart, perSecond: Double(tally.afterStart.totalCount) / max(0.001, seconds - (tally.startSeconds ?? 0))),
            startSeconds: tally.startSeconds,
            converged: tally.converged,
            pending: tally.pending
        )
        errors = tally.errors
        statuses = tally.statuses
        memory = Memory(
            residentBeforeBytes: tally.residentBeforeBytes,
            residentAfterBytes: tally.residentAfterBytes,
            perDeviceBytes: max(0, tally.residentAfterBytes - tally.residentBeforeBytes) / max(1, tally.devices)
        )
        audit = tally.audit
        self.faults = faults
    }

    public struct Latency: Sendable, Codable, Equatable {
        public var count: UInt64
        public var perSecond: Double
        public var p50Milliseconds: Double
        public var p90Milliseconds: Double
        public var p99Milliseconds: Double
        public var maxMilliseconds: Double

        init(_ histogram: Histogram<UInt64>, perSecond: Double) {
            count = histogram.totalCount
            self.perSecond = perSecond
            func milliseconds(_ microseconds: UInt64) -> Double { Double(microseconds) / 1000 }
            p50Milliseconds = milliseconds(histogram.valueAtPercentile(50))
            p90Milliseconds = milliseconds(histogram.valueAtPercentile(90))
            p99Milliseconds = milliseconds(histogram.valueAtPercentile(99))
            maxMilliseconds = milliseconds(histogram.max)
        }
    }

    public struct Convergence: Sendable, Codable, Equatable {
        public var arrivals: Latency
        /// The arrivals of the writes made once every device had started (nil: none was): the
        /// steady state, apart from the storm of a fleet's start.
        public var afterStart: Latency?
        /// Seconds from the run's start until every device's start was over; nil when some
        /// device's never was.
        public var startSeconds: Double?
        /// Writes every other device of the account has seen.
        public var converged: Int
        /// Writes some device had not seen when the run ended.
        public var pending: Int
    }

    public struct Audit: Sendable, Codable, Equatable {
        /// Writes cloudd acknowledged.
        public var acknowledged: Int
        /// Acknowledged writes missing from their zone at the end.
        public var lost: Int
        /// Accounts whose zone could not be read back (five tries): their writes are not counted
        /// either way.
        public var unreadableAccounts: Int
    }

    public struct FaultOutcome: Sendable, Codable, Equatable {
        public var fault: FleetFault
        /// What was done, or why it failed.
        public var outcome: String
        /// Whether the fault could not be caused: the run then tested nothing of it.
        public var failed: Bool = false
    }

    public struct Memory: Sendable, Codable, Equatable {
        public var residentBeforeBytes: Int
        public var residentAfterBytes: Int
        public var perDeviceBytes: Int
        /// The most the cloud the fleet ran against (its cloudd replicas and PostgreSQL servers)
        /// held at once, sampled every few seconds; 0 when not measured.
        public var cloudPeakBytes: Int = 0
    }

    /// The report as a table for a terminal.
    public var lines: [String] {
        var lines = [
            "fleet: \(plan.devices) devices over \(accounts) accounts, \(String(format: "%.1f", elapsedSeconds)) s",
            "operation                calls     per s     p50 ms     p90 ms     p99 ms     max ms",
        ]
        func row(_ name: String, _ latency: Latency) -> String {
            let cells = [latency.perSecond, latency.p50Milliseconds, latency.p90Milliseconds, latency.p99Milliseconds, latency.maxMilliseconds]
            return name.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%9llu", latency.count)
                + cells.map { String(format: " %10.1f", $0) }.joined()
        }
        for (name, latency) in operations.sorted(by: { $0.key < $1.key }) { lines.append(row(name, latency)) }
        lines.append(row("convergence", convergence.arrivals))
        if let afterStart = convergence.afterStart { lines.append(row("  after the start", afterStart)) }
        lines.append(
            convergence.startSeconds.map { String(format: "every device had started after %.1f s", $0) }
                ?? "some device's start never ended (its first fetch, app setup or install): no steady state was measured"
        )
        lines.append("writes converged: \(convergence.converged), still travelling: \(convergence.pending)")
        for (function, counts) in statuses.sorted(by: { $0.key < $1.key }) {
            lines.append("\(function): " + counts.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
        }
        lines.append(
            errors.isEmpty ? "errors: none" : "errors: " + errors.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        )
        for fault in faults { lines.append("fault \(fault.fault): \(fault.outcome)") }
        lines.append(
            "acknowledged writes: \(audit.acknowledged), lost: \(audit.lost)"
                + (audit.unreadableAccounts > 0 ? ", accounts not read back: \(audit.unreadableAccounts)" : "")
        )
        lines.append(
            "memory: \(memory.residentAfterBytes / 1_048_576) MiB resident, about \(memory.perDeviceBytes / 1024) KiB a device"
                + (memory.cloudPeakBytes > 0 ? "; the cloud at most \(memory.cloudPeakBytes / 1_048_576) MiB" : "")
        )
        return lines
    }
}
