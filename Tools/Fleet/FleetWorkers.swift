public import Foundation

/// A fleet run over several processes (`kclab fleet --workers N`): a process's open files cap how
/// many devices it holds (each device keeps up to five TLS connections), so each worker runs a share of
/// whole accounts. Every worker mints its devices and says `ready`; once all have, each hears
/// `go` on its standard input and starts, and the faults are caused from then. At the end each
/// writes its ``FleetTally`` as JSON to its standard output, and the tallies add up to the report.
public enum FleetWorkers {
    /// What a worker says on its standard output once its devices are made.
    public static let ready = "ready"

    /// The shares of `plan`'s devices for `workers` workers: whole accounts, as even as they go.
    public static func shares(_ plan: FleetPlan, workers: Int) -> [Range<Int>] {
        let perWorker = (plan.accounts + workers - 1) / max(1, workers)
        return stride(from: 0, to: plan.accounts, by: max(1, perWorker)).map { first in
            (first * plan.devicesPerAccount)..<min(plan.devices, (first + perWorker) * plan.devicesPerAccount)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `plan` over `workers` processes of `executable`, each started with the arguments
    /// `arguments` gives for its share and the run's name; their standard error (progress) is
    /// this process's.
    public static func run(
        _ plan: FleetPlan,
        workers: Int,
        executable: URL,
        arguments: (Range<Int>, String) throws -> [String],
        inject: @escaping @Sendable (FleetFault) async throws -> String,
        progress: @escaping @Sendable (String) -> Void
    ) async throws -> FleetReport {
        let run = FleetRunner.newRun()
        var processes: [(process: Process, input: Pipe, output: Pipe)] = []
        defer {
            for worker in processes where worker.process.isRunning { worker.process.terminate() }
        }
        for share in shares(plan, workers: workers) {
            let process = Process()
            process.executableURL = executable
            process.arguments = try arguments(share, run)
            let (input, output) = (Pipe(), Pipe())
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            processes.append((process, input, output))
        }
        progress("\(processes.count) workers making their devices")
        let limit = readyLimit(devices: plan.devices)
        let deadline = ContinuousClock.now + limit
        let pids = processes.map { $0.process.processIdentifier }
        for (index, worker) in processes.enumerated() {
            let handle = worker.output.fileHandleForReading
            let line = await withTaskGroup(of: String?.self) { group in
                group.addTask { await Task.detached { Self.line(from: handle) }.value }
                // A worker that hangs while making its devices would hang the run: past the
                // deadline every worker is stopped, which also ends the read above.
                group.addTask {
                    guard (try? await Task.sleep(until: deadline)) != nil else { return nil }
                    for pid in pids { kill(pid, SIGTERM) }
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            guard line == ready else {
                if ContinuousClock.now >= deadline {
                    throw Failure(description: "worker \(index) did not make its devices within \(limit); every worker was stopped")
                }
                throw Failure(description: "worker \(index) stopped before its devices were ready (status \(Self.status(worker.process)))")
            }
        }
        for worker in processes { worker.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        let start = ContinuousClock.now
        let faults = FleetRunner.cause(plan.faults, from: start, inject: inject, progress: progress)
        var tally = FleetTally()
        for (index, worker) in processes.enumerated() {
            let data = await Task.detached { worker.output.fileHandleForReading.readDataToEndOfFile() }.value
            worker.process.waitUntilExit()
            guard worker.process.terminationStatus == 0, let share = try? JSONDecoder().decode(FleetTally.self, from: data) else {
                throw Failure(description: "worker \(index) failed (status \(worker.process.terminationStatus)); its errors are above")
            }
            tally.add(share)
        }
        return FleetReport(plan: plan, tally: tally, elapsedSeconds: (ContinuousClock.now - start) / .seconds(1), faults: await faults.value)
    }

    /// How long the workers may take to make `devices` devices in all: minting an identity and
    /// its TLS contexts takes about a millisecond in a release build, some tens in a debug one.
    static func readyLimit(devices: Int) -> Duration {
        .seconds(120) + .milliseconds(50 * devices)
    }

    /// Reads one line, byte by byte (nothing past it is consumed).
    static func line(from handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while bytes.count < 256, let byte = try? handle.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            bytes.append(first)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func status(_ process: Process) -> String {
        process.isRunning ? "running" : "\(process.terminationStatus)"
    }
}

extension FleetWorkers {
    /// A worker's side: says ``ready`` once `share`'s devices are made, waits for `go` on its
    /// standard input, runs them, and writes its tally as JSON to its standard output.
    public static func work(_ share: FleetShare, progress: @escaping @Sendable (String) -> Void) async throws {
        FileHandle.standardOutput.write(Data("\(ready)\n".utf8))
        let go = await Task.detached { Self.line(from: FileHandle.standardInput) }.value
        guard go == "go" else { throw Failure(description: "the fleet that started this worker went away") }
        let tally = await share.run(from: ContinuousClock.now, every: .seconds(5), progress: progress)
        FileHandle.standardOutput.write(try JSONEncoder().encode(tally))
    }
}
