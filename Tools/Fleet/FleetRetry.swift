import Foundation
import ServiceSupport

/// How a fleet device retries a setup step, as a device retries what a busy or unreachable
/// service did not do: after a transport failure (a connection refused or timed out while
/// thousands of devices start) or a 5xx/429 answer, again after a growing pause with jitter
/// (5 s, 10 s, 20 s … at most 60 s, each between half and one and a half times that), until the
/// run ends. The pauses are long on purpose: devices that retried after 1 s kept an overloaded
/// machine overloaded (10,000 devices starting on two cores set up fewer than without retries).
/// A refusal (4xx) is final. Each failed attempt is counted under `operation` in the errors.
enum FleetRetry {
    /// The longest pause between two attempts.
    static let longestPause = Duration.seconds(60)

    /// A failure the service meant as "not now" rather than "no".
    static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let failure as ServiceClient.Failure: failure.status >= 500 || failure.status == 429
        case is FleetDeviceApp.SetupFailure, is CancellationError: false
        default: true
        }
    }

    /// `body`'s result, retried while its failures are transient and the run has time; nil when
    /// it failed for good or `end` came first.
    static func attempt<T: Sendable>(
        _ operation: String,
        until end: ContinuousClock.Instant,
        stats: FleetStats,
        kind: (any Error) -> String,
        firstPause: Duration = .seconds(5),
        _ body: () async throws -> T
    ) async -> T? {
        var backoff = FleetBackoff(first: firstPause, longest: longestPause)
        while !Task.isCancelled {
            do {
                return try await body()
            } catch {
                if Task.isCancelled { return nil }
                stats.failed(operation, kind: kind(error))
                let wait = backoff.pause()
                guard isTransient(error), ContinuousClock.now + wait < end else { return nil }
                try? await Task.sleep(for: wait)
            }
        }
        return nil
    }
}
