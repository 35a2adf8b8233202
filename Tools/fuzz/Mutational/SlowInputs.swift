/// The time each input took, per byte, watched while fuzzing: a parser can fail by taking too
/// long as well as by crashing, and a crash-only fuzzer cannot see that. Keeps a sample of the
/// costs (seconds per byte, with 64 bytes added for the fixed cost of any call), the seeds'
/// costs, and the slowest inputs.
struct SlowInputs {
    struct Input {
        let cost: Double
        let bytes: [UInt8]
    }

    private(set) var sample: [Double] = []
    private(set) var seedCosts: [Double] = []
    private(set) var slowest: [Input] = []
    private var seen = 0
    private var generator = SplitMix64(state: 7)
    static let kept = 5
    static let sampleSize = 4096

    static func cost(seconds: Double, bytes: Int) -> Double { seconds / Double(bytes + 64) }

    mutating func record(_ input: [UInt8], seconds: Double, isSeed: Bool) {
        let cost = Self.cost(seconds: seconds, bytes: input.count)
        if isSeed { seedCosts.append(cost) }
        seen += 1
        // Reservoir sampling: every input has the same chance to be in the sample.
        if sample.count < Self.sampleSize {
            sample.append(cost)
        } else {
            let slot = Int(generator.next() % UInt64(seen))
            if slot < Self.sampleSize { sample[slot] = cost }
        }
        if slowest.count < Self.kept || cost > (slowest.last?.cost ?? 0) {
            slowest.append(Input(cost: cost, bytes: input))
            slowest.sort { $0.cost > $1.cost }
            if slowest.count > Self.kept { slowest.removeLast() }
        }
    }

    /// The cost an input is compared with: the median of the sample, or of the seeds (real,
    /// well-formed inputs that go all the way through), whichever is higher.
    var baseline: Double {
        max(Self.median(sample), Self.median(seedCosts))
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }
}
