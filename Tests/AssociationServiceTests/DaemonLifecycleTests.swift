import Logging
import ServiceLifecycle
import ServiceSupport
import Synchronization
import Testing

/// The daemons' process model: repeated work runs on its interval and stops at graceful shutdown,
/// work that runs until cancelled is cancelled by it, and `finally` runs after every service stopped.
@Suite struct DaemonLifecycleTests {
    final class Counter: Sendable {
        let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test func gracefulShutdownStopsEveryServiceThenRunsFinally() async throws {
        let ticks = Counter()
        let cancelled = Counter()
        let finished = Counter()
        let repeating = RepeatingWork(every: .milliseconds(10)) { ticks.add() }
        let serving = CancellableWork {
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.add()
                throw error
            }
        }
        let group = ServiceGroup(configuration: .init(services: [repeating, serving], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            while ticks.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(cancelled.count == 1, "the socket-server-like work was cancelled")
        let stopped = ticks.count
        try await Task.sleep(for: .milliseconds(50))
        #expect(ticks.count == stopped, "no tick after shutdown")

        try await DaemonLifecycle.run([], logger: Logger(label: "test"), finally: { finished.add() })
        #expect(finished.count == 1)
    }
}
