/// SplitMix64: a small, fast, seedable generator, so a run can be repeated exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Makes inputs from seeds the way coverage-blind fuzzers do: flips, inserts, deletes,
/// duplicates and splices bytes, and inserts the bytes parsers treat specially.
struct Mutator {
    var random: SplitMix64
    let seeds: [[UInt8]]
    /// Bytes and tokens that reach parsers' edge cases.
    static let interesting: [[UInt8]] = [
        Array("{".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8), Array("\"".utf8), Array("\\".utf8), Array(":".utf8),
        Array(",".utf8), Array("\\u0000".utf8), Array("\\ud800".utf8), Array("-0".utf8), Array("1e999".utf8),
        Array("null".utf8), [0], [0xFF], [0xC0, 0x80], [0xF0, 0x9F, 0x98], [0x30, 0x82, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF],
        [0xFF, 0xFF, 0xFF, 0xFF], Array("<dict>".utf8), Array("</array>".utf8), Array("- ".utf8), Array("&anchor ".utf8),
        Array("*anchor".utf8), Array("\n  ".utf8),
    ]

    init(seed: UInt64, seeds: [[UInt8]]) {
        random = SplitMix64(state: seed)
        self.seeds = seeds
    }

    mutating func next() -> [UInt8] {
        var input = seeds[Int(random.next() % UInt64(seeds.count))]
        for _ in 0...Int(random.next() % 4) { mutate(&input) }
        return input
    }

    private mutating func index(_ count: Int) -> Int {
        count == 0 ? 0 : Int(random.next() % UInt64(count))
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        switch random.next() % 8 {
        case 0 where !input.isEmpty:
            input[index(input.count)] ^= UInt8(1 << (random.next() % 8))
        case 1:
            input.insert(UInt8(truncatingIfNeeded: random.next()), at: index(input.count + 1))
        case 2 where !input.isEmpty:
            let start = index(input.count)
            input.removeSubrange(start..<min(input.count, start + 1 + index(16)))
        case 3 where !input.isEmpty:
            let start = index(input.count)
            let slice = input[start..<min(input.count, start + 1 + index(64))]
            input.insert(contentsOf: slice, at: index(input.count + 1))
        case 4:
            input.insert(contentsOf: Self.interesting[index(Self.interesting.count)], at: index(input.count + 1))
        case 5:
            let other = seeds[index(seeds.count)]
            guard !other.isEmpty else { return }
            let start = index(other.count)
            input.insert(contentsOf: other[start..<min(other.count, start + 1 + index(64))], at: index(input.count + 1))
        case 6 where !input.isEmpty:
            input.removeSubrange(index(input.count)...)
        default:
            if !input.isEmpty { input[index(input.count)] = UInt8(truncatingIfNeeded: random.next()) }
        }
    }
}
