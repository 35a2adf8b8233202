import Foundation
import Histogram
import Testing

@testable import Fleet

/// A fleet measures convergence twice: every write, and apart the writes made once every
/// device's start was over (the steady state), across workers too.
@Suite struct FleetStartTests {
    @Test func writesAfterTheLastStartStepAreMeasuredApart() {
        let stats = FleetStats()
        stats.expectStarts(2)
        let early = UUID()
        stats.written(early, by: 0, at: .now, others: 1)
        stats.startEnded()
        #expect(stats.startedAt == nil, "one step of two is over")
        stats.startEnded()
        let started = stats.startedAt
        let late = UUID()
        stats.written(late, by: 0, at: .now, others: 1)
        stats.seen(early, by: 1, at: .now)
        stats.seen(late, by: 1, at: .now)
        let tally = stats.tally
        #expect(tally.convergence.totalCount == 2 && tally.converged == 2)
        #expect(tally.afterStart.totalCount == 1, "only the write made after the start")
        #expect(started != nil)
    }

    @Test func theFleetHasStartedOnceEveryShareHas() {
        func share(_ seconds: Double?) -> FleetTally {
            var tally = FleetTally()
            tally.devices = 10
            tally.startSeconds = seconds
            return tally
        }
        var both = FleetTally()
        both.add(share(4))
        both.add(share(7))
        #expect(both.startSeconds == 7)
        var one = FleetTally()
        one.add(share(4))
        one.add(share(nil))
        #expect(one.startSeconds == nil, "a share whose start never ended")
        var first = FleetTally()
        first.add(share(nil))
        first.add(share(3))
        #expect(first.startSeconds == nil)
    }
}
