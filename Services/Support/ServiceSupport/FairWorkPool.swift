public import Foundation
import Synchronization

/// Work on untrusted input, off the threads that answer requests: a few threads of its own,
/// fed in turn by key (an account, a site), so that one key's many or slow jobs wait behind each
/// other and not in front of another key's. Jobs beyond `maximumQueued` are refused at once,
/// and a caller can stop waiting after a budget: the answer is then `overBudget`, and a job not
/// yet started never starts. The login website hashes passwords here; associationd reads
/// websites' association files here.
public final class FairWorkPool: Sendable {
    public enum Outcome<T: Sendable>: Sendable {
        case done(T)
        /// Too many jobs were waiting: refused without running.
        case busy
        /// The budget ran out before the job finished (it may still be running, and its result is dropped).
        case overBudget
    }

    typealias Job = @Sendable () -> Void

    private struct State {
        /// Each key's waiting jobs, oldest first.
        var queues: [String: [Job]] = [:]
        /// The keys with waiting jobs, served in turn from `cursor`.
        var order: [String] = []
        var cursor = 0
        var queued = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    public let maximumQueued: Int

    /// Starts `threads` workers named `name-N` (one fewer than the cores, at least one, by default).
    public init(name: String, threads: Int = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount - 1)), maximumQueued: Int = 256) {
        self.maximumQueued = maximumQueued
        for index in 0..<threads {
            let thread = Thread { [self] in
                while true {
                    ready.wait()
                    next()?()
                }
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs `work` on a worker in `key`'s turn, waiting at most `budget` (nil: as long as it takes).
    public func run<T: Sendable>(key: String, budget: Duration? = nil, _ work: @escaping @Sendable () -> T) async -> Outcome<T> {
        let answer = OnceAnswer<T>()
        // The budget's timer, cancelled once the answer is in, so no sleeping task outlives it.
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome<T>, Never>) in
            answer.set(continuation)
            let accepted = state.withLock { state -> Bool in
                guard state.queued < maximumQueued else { return false }
                if state.queues[key] == nil { state.order.append(key) }
                state.queues[key, default: []].append {
                    guard !answer.isAnswered else { return }
                    answer.give(.done(work()))
                }
                state.queued += 1
                return true
            }
            guard accepted else {
                answer.give(.busy)
                return
            }
            ready.signal()
            if let budget {
                timer = Task {
                    guard (try? await Task.sleep(for: budget)) != nil else { return }
                    answer.give(.overBudget)
                }
            }
        }
    }

    /// The next job: the oldest of the next key in turn.
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

/// A continuation resumed by whichever comes first: the job's result, a refusal, or the budget.
private final class OnceAnswer<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<FairWorkPool.Outcome<T>, Never>?, answered: Bool)>((nil, false))

    var isAnswered: Bool { state.withLock { $0.answered } }

    func set(_ continuation: CheckedContinuation<FairWorkPool.Outcome<T>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func give(_ outcome: FairWorkPool.Outcome<T>) {
        let continuation = state.withLock { state -> CheckedContinuation<FairWorkPool.Outcome<T>, Never>? in
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
