import Foundation
import Synchronization

/// Where passwords are hashed and checked: a few threads of its own, so scrypt (tens of
/// milliseconds and 32 MiB each) never occupies the threads that answer other requests, fed in
/// turn by account, so that forty guesses at one account wait behind each other and not in front
/// of another account's sign-in. Jobs beyond `maximumQueued` are refused at once.
final class PasswordWorkPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Each account's waiting jobs, oldest first.
        var queues: [String: [Job]] = [:]
        /// The accounts with waiting jobs, served in turn from `cursor`.
        var order: [String] = []
        var cursor = 0
        var queued = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    let maximumQueued: Int

    /// Starts `threads` workers (one fewer than the cores, at least one, by default).
    init(threads: Int = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount - 1)), maximumQueued: Int = 256) {
        self.maximumQueued = maximumQueued
        for index in 0..<threads {
            let thread = Thread { [self] in
                while true {
                    ready.wait()
                    next()?()
                }
            }
            thread.name = "password-\(index)"
            thread.start()
        }
    }

    /// Runs `work` on a worker in `key`'s turn; nil, at once, when too many jobs wait.
    func run<T: Sendable>(key: String, _ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let accepted = state.withLock { state -> Bool in
                guard state.queued < maximumQueued else { return false }
                if state.queues[key] == nil { state.order.append(key) }
                state.queues[key, default: []].append { continuation.resume(returning: work()) }
                state.queued += 1
                return true
            }
            if accepted {
                ready.signal()
            } else {
                continuation.resume(returning: nil)
            }
        }
    }

    /// The next job: the oldest of the next account in turn.
    private func next() -> Job? {
        state.withLock { state -> Job? in
            guard !state.order.isEmpty else { return nil }
            if state.cursor >= state.order.count { state.cursor = 0 }
            let key = state.order[state.cursor]
            guard var queue = state.queues[key], !queue.isEmpty else { return nil }
            let job = queue.removeFirst()
            state.queued -= 1
            if queue.isEmpty {
                state.queues[key] = nil
                state.order.remove(at: state.cursor)
            } else {
                state.queues[key] = queue
                state.cursor += 1
            }
            return job
        }
    }
}
