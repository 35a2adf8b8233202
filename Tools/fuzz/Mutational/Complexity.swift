import Foundation
import FuzzTargets

/// The complexity check (`kclab-fuzz --complexity`): each target's parser fed an input of about
/// `baseBytes` in each of its shapes, then one eight times as long; a linear parser takes about 8
/// times as long, a quadratic one 64. A ratio above `limit` is measured again one scale up (8N
/// and 64N) and fails only if it is above `limit` there too: a super-linear parser grows faster at
/// every scale, while a step (data outgrowing a processor cache) is crossed once. Times are the
/// best of several trials, each repeating the parse enough to last a few milliseconds, so one
/// slow moment does not decide.
struct Complexity {
    struct Row {
        let target: String
        let shape: String
        let bytes: (Int, Int)
        let seconds: (Double, Double)
        /// The ratio one scale up, measured only when ``ratio`` is above the limit.
        var nextScale: Double? = nil
        var ratio: Double { seconds.1 / max(seconds.0, 1e-9) }

        /// Whether the parser grew faster than `limit` at both scales.
        func isSuperLinear(limit: Double) -> Bool {
            ratio > limit && (nextScale ?? ratio) > limit
        }
    }

    let baseBytes: Int
    let limit: Double

    func rows(_ target: FuzzTarget) -> [Row] {
        target.shapes.map { shape in
            var count = 1
            while shape.make(count).count < baseBytes, count < 1 << 24 { count *= 2 }
            let small = shape.make(count)
            let large = shape.make(count * 8)
            let repetitions = Self.repetitions(for: small, target.run)
            var row = Row(
                target: target.name,
                shape: shape.name,
                bytes: (small.count, large.count),
                seconds: (Self.best(small, repetitions, target.run), Self.best(large, repetitions, target.run))
            )
            if row.ratio > limit {
                let largest = shape.make(count * 64)
                let again = Self.repetitions(for: large, target.run)
                row.nextScale = Self.best(largest, again, target.run) / max(Self.best(large, again, target.run), 1e-9)
            }
            return row
        }
    }

    /// How many runs of `input` take at least 20 ms (at least one).
    static func repetitions(for input: [UInt8], _ run: ([UInt8]) -> Void) -> Int {
        let once = time(input, 1, run)
        return max(1, min(10_000, Int(0.02 / max(once, 1e-7))))
    }

    /// The best of three trials of `repetitions` runs, per run.
    static func best(_ input: [UInt8], _ repetitions: Int, _ run: ([UInt8]) -> Void) -> Double {
        (0..<3).map { _ in time(input, repetitions, run) / Double(repetitions) }.min() ?? 0
    }

    static func time(_ input: [UInt8], _ repetitions: Int, _ run: ([UInt8]) -> Void) -> Double {
        let start = ContinuousClock.now
        for _ in 0..<repetitions { run(input) }
        return seconds(ContinuousClock.now - start)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The rows as a Markdown table, for docs/reliability.md.
    static func table(_ rows: [Row]) -> String {
        var text = "| target | shape | bytes, N and 8N | time for N | time for 8N | ratio |\n| --- | --- | --- | --- | --- | --- |\n"
        for row in rows {
            text += "| \(row.target) | \(row.shape) | \(row.bytes.0), \(row.bytes.1) | \(show(row.seconds.0)) | \(show(row.seconds.1)) | "
            text += String(format: "%.1f", row.ratio) + (row.nextScale.map { String(format: " (8N → 64N: %.1f)", $0) } ?? "") + " |\n"
        }
        return text
    }

    static func show(_ seconds: Double) -> String {
        seconds >= 0.001 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.0f µs", seconds * 1_000_000)
    }
}
