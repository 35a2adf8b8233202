import NIOCore
import Synchronization

/// A round trip to PostgreSQL that outlasted the store's limit: the server hangs without
/// refusing (stopped, or its machine gone silent with the connection open). The call may be
/// tried again; the connection is closed.
struct RoundTripTimedOut: Error, CustomStringConvertible {
    let limit: TimeAmount

    var description: String { "PostgreSQL did not answer within \(limit.nanoseconds / 1_000_000_000) s" }
}

extension EventLoopFuture where Value: Sendable {
    /// Blocks until the future has a value, at most `limit`; past it, throws ``RoundTripTimedOut``
    /// and gives a value that still arrives to `late` (a connection opened too late is closed).
    func wait(atMost limit: TimeAmount, late: @escaping @Sendable (Value) -> Void = { _ in }) throws -> Value {
        let answered = eventLoop.makePromise(of: Value.self)
        let settled = Settled()
        let timer = eventLoop.scheduleTask(in: limit) {
            guard settled.claim() else { return }
            answered.fail(RoundTripTimedOut(limit: limit))
        }
        whenComplete { result in
            guard settled.claim() else {
                if case .success(let value) = result { late(value) }
                return
            }
            timer.cancel()
            answered.completeWith(result)
        }
        return try answered.futureResult.wait()
    }
}

/// Whether the answer or the timer came first: the first to claim it settles the wait.
private final class Settled: Sendable {
    private let done = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool {
        !done.exchange(true, ordering: .acquiringAndReleasing)
    }
}
