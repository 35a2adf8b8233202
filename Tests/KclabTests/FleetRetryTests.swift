import Foundation
import Synchronization
import Testing

@testable import Fleet
@testable import ServiceSupport

/// A fleet device retries a setup step the way a device does: after "not now", never after "no".
@Suite struct FleetRetryTests {
    struct Unreachable: Error {}

    @Test func busyAnswersAndTransportFailuresAreRetriedRefusalsAreNot() {
        #expect(FleetRetry.isTransient(ServiceClient.Failure(status: 503, body: "", service: "keychaind")))
        #expect(FleetRetry.isTransient(ServiceClient.Failure(status: 429, body: "", service: "keychaind")))
        #expect(FleetRetry.isTransient(Unreachable()))
        #expect(!FleetRetry.isTransient(ServiceClient.Failure(status: 403, body: "", service: "keychaind")))
        #expect(!FleetRetry.isTransient(FleetDeviceApp.SetupFailure(description: "the first items were not added")))
        #expect(!FleetRetry.isTransient(CancellationError()))
    }

    @Test func aStepIsRetriedUntilItWorksAndEachFailureCounted() async {
        let stats = FleetStats()
        let attempts = Attempts()
        // The run's end an hour away: under the whole suite a starved process once took over a
        // minute between two attempts, and the end, not the retry, ended the step.
        let answer = await FleetRetry.attempt(
            "keychain setup",
            until: .now + .seconds(3_600),
            stats: stats,
            kind: Self.unreachable,
            firstPause: .milliseconds(5)
        ) {
            guard attempts.next() > 2 else { throw Unreachable() }
            return "app"
        }
        #expect(answer == "app")
        #expect(attempts.count == 3)
        #expect(stats.tally.errors == ["keychain setup: unreachable": 2])
    }

    @Test func aRefusalEndsTheStepAtOnce() async {
        let stats = FleetStats()
        let attempts = Attempts()
        let answer: String? = await FleetRetry.attempt(
            "association setup",
            until: .now + .seconds(3_600),
            stats: stats,
            kind: FleetDevice.kind,
            firstPause: .milliseconds(5)
        ) {
            _ = attempts.next()
            throw ServiceClient.Failure(status: 403, body: "", service: "associationd")
        }
        #expect(answer == nil)
        #expect(attempts.count == 1)
        #expect(stats.tally.errors == ["association setup: HTTP 403": 1])
    }

    @Test func noAttemptStartsAfterTheRunsEnd() async {
        let attempts = Attempts()
        let answer: String? = await FleetRetry.attempt(
            "keychain setup",
            until: .now + .milliseconds(1),
            stats: FleetStats(),
            kind: Self.unreachable,
            firstPause: .seconds(5)
        ) {
            _ = attempts.next()
            throw Unreachable()
        }
        #expect(answer == nil)
        #expect(attempts.count == 1)
    }

    static func unreachable(_: any Error) -> String { "unreachable" }

    /// Counts attempts across the body's calls.
    final class Attempts: Sendable {
        private let made = Mutex(0)
        var count: Int { made.withLock { $0 } }
        func next() -> Int {
            made.withLock { made in
                made += 1
                return made
            }
        }
    }
}
