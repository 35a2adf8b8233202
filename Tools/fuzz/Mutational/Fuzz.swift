import ArgumentParser
import Foundation
import FuzzTargets

/// `kclab-fuzz`: feeds every parser of the lab mutated inputs for a while; any crash ends the
/// process with the input that caused it saved. `make fuzz` runs it; docs/reliability.md
/// records its figures.
@main
struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kclab-fuzz",
        abstract: "Fuzz KeychainLab's parsers with mutated inputs (a seeded, coverage-blind mutator).",
        discussion: "A crash saves its input in --crashes and ends with the signal; otherwise one line per target: runs, seconds, runs a second."
    )

    @Option(help: "Seconds per target.")
    var seconds = 10.0

    @Option(help: "Stop a target after this many inputs (whichever comes first).")
    var runs = 1_000_000

    @Option(help: "The generator's seed, to repeat a run exactly.")
    var seed: UInt64 = 1

    @Option(help: "Only the targets whose name contains this.")
    var only: String?

    @Option(help: "Where a crashing input is saved.")
    var crashes = ".fuzz-crashes"

    @Option(help: "The world file the world-yaml target grows from.")
    var world = "Tools/worlds/demo.yaml"

    @Option(help: "Where each target's slowest inputs are saved.")
    var slow = ".fuzz-slow"

    @Option(help: "An input whose time per byte is this many times the target's median fails the run.")
    var slowFactor = 100.0

    @Flag(help: "List the targets.")
    var list = false

    @Flag(
        help: "Instead of fuzzing: time each target on inputs of N and 8N bytes in each of its shapes; fail when time grows more than --ratio-limit."
    )
    var complexity = false

    @Option(help: "The complexity check's N, in bytes.")
    var complexityBytes = 4096

    @Option(help: "The largest time ratio for 8 times the input.")
    var ratioLimit = 16.0

    func run() throws {
        let targets = try FuzzTarget.all(worldFile: world).filter { only.map($0.name.contains) ?? true }
        if list {
            for target in targets { print("\(target.name): \(target.about)") }
            return
        }
        if complexity { return try checkComplexity(targets) }
        try FileManager.default.createDirectory(atPath: crashes, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: slow, withIntermediateDirectories: true)
        var tooSlow: [String] = []
        for target in targets {
            CrashCapture.arm(file: "\(crashes)/\(target.name)-seed\(seed).bin")
            var mutator = Mutator(seed: seed, seeds: target.seeds)
            let start = ContinuousClock.now
            let deadline = start + .milliseconds(Int64(seconds * 1000))
            var count = 0
            var watch = SlowInputs()
            while count < runs {
                let input = count < target.seeds.count ? target.seeds[count] : mutator.next()
                CrashCapture.remember(input)
                let began = ContinuousClock.now
                target.run(input)
                watch.record(input, seconds: Complexity.seconds(ContinuousClock.now - began), isSeed: count < target.seeds.count)
                count += 1
                if count % 256 == 0, ContinuousClock.now > deadline { break }
            }
            let (failures, worst) = try slowest(target, watch)
            tooSlow += failures
            let elapsed = ContinuousClock.now - start
            let secondsTaken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Int(Double(count) / max(secondsTaken, 0.001))
            let name = target.name.padding(toLength: 18, withPad: " ", startingAt: 0)
            print(
                "\(name) \(count) inputs in \(String(format: "%.1f", secondsTaken)) s (\(rate)/s), no crash, "
                    + "slowest \(String(format: "%.1f", worst))× the median time per byte"
            )
        }
        guard tooSlow.isEmpty else {
            for line in tooSlow { print("TOO SLOW \(line)") }
            throw ExitCode(1)
        }
    }

    /// Saves the target's slowest inputs, times each again (the best of three, so one slow moment
    /// does not decide), and names those still far slower per byte than the target's median.
    private func slowest(_ target: FuzzTarget, _ watch: SlowInputs) throws -> (failures: [String], worst: Double) {
        var failures: [String] = []
        var worst = 0.0
        for (rank, input) in watch.slowest.enumerated() {
            let file = "\(slow)/\(target.name)-\(rank + 1).bin"
            try Data(input.bytes).write(to: URL(fileURLWithPath: file))
            let again = Complexity.best(input.bytes, 1, target.run)
            let times = SlowInputs.cost(seconds: again, bytes: input.bytes.count) / max(watch.baseline, 1e-12)
            worst = max(worst, times)
            if times > slowFactor {
                failures.append("\(target.name): \(file), \(input.bytes.count) bytes, \(Int(times))× the median time per byte")
            }
        }
        return (failures, worst)
    }

    /// `--complexity`: the table for docs/reliability.md, and a failure for any ratio past the limit.
    private func checkComplexity(_ targets: [FuzzTarget]) throws {
        let check = Complexity(baseBytes: complexityBytes, limit: ratioLimit)
        var rows: [Complexity.Row] = []
        for target in targets where !target.shapes.isEmpty {
            let measured = check.rows(target)
            for row in measured {
                FileHandle.standardError.write(Data("\(row.target) \(row.shape): \(String(format: "%.1f", row.ratio))\n".utf8))
            }
            rows += measured
        }
        print(Complexity.table(rows), terminator: "")
        let failed = rows.filter { $0.isSuperLinear(limit: ratioLimit) }
        guard failed.isEmpty else {
            for row in failed {
                let again = row.nextScale.map { String(format: ", and %.1f× one scale up", $0) } ?? ""
                print("SUPER-LINEAR \(row.target) (\(row.shape)): 8× the input took \(String(format: "%.1f", row.ratio))× the time\(again)")
            }
            throw ExitCode(1)
        }
    }
}
