import Foundation
import Histogram

/// Runs a fleet in this process: one ``FleetShare`` of every device, the plan's faults caused at
/// their times, and the report. `kclab fleet --workers` runs shares in processes of their own
/// and adds their tallies up the same way (``FleetReport/init(plan:tally:elapsedSeconds:faults:)``).
public enum FleetRunner {
    /// Runs `plan` against `cloudd`; `progress` hears a line every `every` while it runs.
    public static func run(
        _ plan: FleetPlan,
        services: FleetServices,
        every: Duration = .seconds(5),
        inject: @escaping @Sendable (FleetFault) async throws -> String = { _ in "not caused: no cloud of the fleet's own" },
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> FleetReport {
        let share = try FleetShare(plan, devices: 0..<plan.devices, run: newRun(), services: services, progress: progress)
        let start = ContinuousClock.now
        let faults = cause(plan.faults, from: start, inject: inject, progress: progress)
        let tally = await share.run(from: start, every: every, progress: progress)
        return FleetReport(plan: plan, tally: tally, elapsedSeconds: (ContinuousClock.now - start) / .seconds(1), faults: await faults.value)
    }

    /// A new run's name: its accounts are `fleet-RUN-N@…`, met by no earlier run.
    public static func newRun() -> String {
        String(UUID().uuidString.prefix(8)).lowercased()
    }

    /// Causes each of `faults` at its time after `start`, in order, telling `progress`.
    public static func cause(
        _ faults: [FleetFault],
        from start: ContinuousClock.Instant,
        inject: @escaping @Sendable (FleetFault) async throws -> String,
        progress: @escaping @Sendable (String) -> Void
    ) -> Task<[FleetReport.FaultOutcome], Never> {
        Task {
            var outcomes: [FleetReport.FaultOutcome] = []
            for fault in faults.sorted(by: { $0.atSeconds < $1.atSeconds }) {
                try? await Task.sleep(until: start + .seconds(fault.atSeconds))
                progress("fault \(fault): causing it")
                var outcome = FleetReport.FaultOutcome(fault: fault, outcome: "")
                do { outcome.outcome = try await inject(fault) } catch {
                    outcome.outcome = "failed: \(error)"
                    outcome.failed = true
                }
                progress("fault \(fault): \(outcome.outcome)")
                outcomes.append(outcome)
            }
            return outcomes
        }
    }

    /// A progress line: time, uploads and fetches a second since the last line, writes that
    /// converged and those travelling, errors.
    static func line(_ elapsed: Duration, _ now: FleetTally, since before: FleetTally, interval: Duration) -> String {
        let seconds = max(interval / .seconds(1), 0.001)
        func rate(_ name: String) -> Int {
            Int((Double(now.latencies[name]?.totalCount ?? 0) - Double(before.latencies[name]?.totalCount ?? 0)) / seconds)
        }
        return String(
            format: "%5.0f s  uploads %d/s  fetches %d/s  converged %d  travelling %d  convergence p99 %.0f ms  errors %d",
            elapsed / .seconds(1),
            rate("upload"),
            rate("fetch"),
            now.converged,
            now.pending,
            Double(now.convergence.valueAtPercentile(99)) / 1000,
            now.errors.values.reduce(0, +)
        )
    }
}
