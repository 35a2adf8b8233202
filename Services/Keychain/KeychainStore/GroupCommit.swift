import Foundation
import GRDB
import Synchronization

/// Commits concurrent write transactions together: every body waiting when the writer is free runs
/// in one SQLite transaction, each inside a savepoint of its own (a body that throws undoes only
/// its own changes), and one commit, so one fsync, makes all of them durable.
///
/// With `synchronous = FULL` a commit costs an fsync (about half a millisecond here); sixteen apps
/// adding at once then pay for one instead of sixteen. A caller returns only after the commit that
/// holds its changes, so durability is unchanged.
final class GroupCommit: Sendable {
    private struct Job: Sendable {
        let run: @Sendable (Database) -> Void
        let finish: @Sendable ((any Error)?) -> Void
    }

    private let pool: DatabasePool
    /// Jobs waiting, and whether a writer is draining them; every access holds this Mutex.
    private let queue = Mutex<(jobs: [Job], draining: Bool)>(([], false))

    init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Runs `body` in the next group transaction and returns its result once that transaction committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { db in
                    do {
                        var value: T?
                        try db.inSavepoint {
                            value = try body(db)
                            return .commit
                        }
                        outcome.withLock { $0 = .success(value!) }
                    } catch {
                        outcome.withLock { $0 = .failure(error) }
                    }
                },
                finish: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: outcome.withLock { $0 } ?? .failure(CancellationError()))
                    }
                }
            )
            let startDrain = queue.withLock { state -> Bool in
                state.jobs.append(job)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startDrain {
                Task.detached { await self.drain() }
            }
        }
    }

    private func drain() async {
        while true {
            let jobs = queue.withLock { state -> [Job] in
                let jobs = state.jobs
                state.jobs = []
                if jobs.isEmpty { state.draining = false }
                return jobs
            }
            guard !jobs.isEmpty else { return }
            do {
                try await pool.write { db in
                    for job in jobs { job.run(db) }
                }
                for job in jobs { job.finish(nil) }
            } catch {
                for job in jobs { job.finish(error) }
            }
        }
    }
}
