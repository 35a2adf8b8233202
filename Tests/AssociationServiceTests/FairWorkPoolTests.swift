import Foundation
import ServiceSupport
import Synchronization
import Testing

/// The pool where associationd reads websites' files and the login website hashes passwords:
/// keys served in turn, a bound on what waits, a budget after which the caller stops waiting.
@Suite struct FairWorkPoolTests {
    /// A gate a job waits at until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open() { semaphore.signal() }
    }

    /// What the jobs did, shared with them.
    final class Record<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    @Test func anotherKeyIsServedBeforeTheFirstKeysBacklog() async throws {
        let pool = FairWorkPool(name: "test-fair", threads: 1)
        let gate = Gate()
        let order = Record<[String]>([])
        let blocker = Task { await pool.run(key: "a") { gate.wait() } }
        try await Task.sleep(for: .milliseconds(100))
        var jobs: [Task<FairWorkPool.Outcome<Void>, Never>] = []
        for name in ["a1", "a2", "a3", "b1"] {
            let key = String(name.prefix(1))
            jobs.append(Task { await pool.run(key: key) { order.value.withLock { $0.append(name) } } })
            try await Task.sleep(for: .milliseconds(20))
        }
        gate.open()
        _ = await blocker.value
        for job in jobs { _ = await job.value }
        let ran = order.value.withLock { $0 }
        #expect(ran.count == 4)
        let b = try #require(ran.firstIndex(of: "b1"))
        #expect(b < (ran.firstIndex(of: "a3") ?? 0), "b's one job waits for at most one of a's: \(ran)")
    }

    @Test func pastTheBoundJobsAreRefusedAtOnce() async throws {
        let pool = FairWorkPool(name: "test-bound", threads: 1, maximumQueued: 1)
        let gate = Gate()
        let running = Task { await pool.run(key: "a") { gate.wait() } }
        try await Task.sleep(for: .milliseconds(100))
        let waiting = Task { await pool.run(key: "b") { 1 } }
        try await Task.sleep(for: .milliseconds(50))
        guard case .busy = await pool.run(key: "c", { 2 }) else {
            Issue.record("a third job should be refused")
            gate.open()
            return
        }
        gate.open()
        _ = await running.value
        guard case .done(let value) = await waiting.value else {
            Issue.record("the waiting job should have run")
            return
        }
        #expect(value == 1)
    }

    @Test func aJobPastItsBudgetIsAbandonedAndAQueuedOneNeverRuns() async throws {
        let pool = FairWorkPool(name: "test-budget", threads: 1)
        let gate = Gate()
        let slow = await pool.run(key: "slow", budget: .milliseconds(100)) { gate.wait() }
        guard case .overBudget = slow else {
            Issue.record("the slow job should be over its budget")
            gate.open()
            return
        }
        let ran = Record(false)
        let queued = await pool.run(key: "queued", budget: .milliseconds(100)) { ran.value.withLock { $0 = true } }
        guard case .overBudget = queued else {
            Issue.record("the queued job should be over its budget")
            gate.open()
            return
        }
        gate.open()
        try await Task.sleep(for: .milliseconds(200))
        #expect(!ran.value.withLock { $0 }, "a job whose caller stopped waiting before it started is dropped")
        guard case .done(let value) = await pool.run(key: "after", { 3 }) else {
            Issue.record("the pool should work again")
            return
        }
        #expect(value == 3)
    }
}
