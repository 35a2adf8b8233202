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

    @Flag(help: "List the targets.")
    var list = false

    func run() throws {
        let targets = try FuzzTarget.all(worldFile: world).filter { only.map($0.name.contains) ?? true }
        if list {
            for target in targets { print("\(target.name): \(target.about)") }
            return
        }
        try FileManager.default.createDirectory(atPath: crashes, withIntermediateDirectories: true)
        for target in targets {
            CrashCapture.arm(file: "\(crashes)/\(target.name)-seed\(seed).bin")
            var mutator = Mutator(seed: seed, seeds: target.seeds)
            let start = ContinuousClock.now
            let deadline = start + .milliseconds(Int64(seconds * 1000))
            var count = 0
            while count < runs {
                let input = count < target.seeds.count ? target.seeds[count] : mutator.next()
                CrashCapture.remember(input)
                target.run(input)
                count += 1
                if count % 256 == 0, ContinuousClock.now > deadline { break }
            }
            let elapsed = ContinuousClock.now - start
            let secondsTaken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Int(Double(count) / max(secondsTaken, 0.001))
            let name = target.name.padding(toLength: 18, withPad: " ", startingAt: 0)
            print("\(name) \(count) inputs in \(String(format: "%.1f", secondsTaken)) s (\(rate)/s), no crash")
        }
    }
}
