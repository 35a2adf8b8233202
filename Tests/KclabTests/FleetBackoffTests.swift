import Testing

@testable import Fleet

/// A fleet device's pauses between failed attempts double up to a ceiling, each with jitter,
/// and start over once an attempt works.
@Suite struct FleetBackoffTests {
    @Test func pausesDoubleToTheLongestWithJitterAndStartOverAfterASuccess() {
        var backoff = FleetBackoff(first: .seconds(1), longest: .seconds(30))
        let expected: [Double] = [1, 2, 4, 8, 16, 30, 30, 30]
        var pauses: [Double] = []
        for base in expected {
            let pause = backoff.pause() / .seconds(1)
            #expect(pause >= base * 0.5 && pause <= base * 1.5, "a pause of \(pause) s around \(base) s")
            pauses.append(pause)
        }
        #expect(pauses.last! > pauses.first! * 5, "the pauses grow: \(pauses)")
        backoff.reset()
        let again = backoff.pause() / .seconds(1)
        #expect(again >= 0.5 && again <= 1.5, "after a success the next pause is the first again, not \(again) s")
    }

    @Test func devicesThatFailedTogetherDoNotComeBackTogether() {
        // Jitter: a thousand devices' first pauses spread over most of the allowed second.
        let pauses = (0..<1000).map { _ in
            var backoff = FleetBackoff(first: .seconds(1), longest: .seconds(30))
            return backoff.pause() / .seconds(1)
        }
        #expect(pauses.min()! < 0.6 && pauses.max()! > 1.4, "spread from \(pauses.min()!) to \(pauses.max()!)")
    }
}
