import CloudZones
import Foundation
import NIOCore
import NIOPosix

/// The threads cloudd's store calls block: a pool for each shard, as many threads as the shard
/// serves calls at once (its connections; at least a thread a core). A shard that hangs without
/// refusing (its server stopped, its machine silent) then holds only the threads of its own
/// accounts' calls, never another shard's (docs/scale.md).
struct StorePools: Sendable {
    /// One for each shard, in the shard map's order.
    let pools: [NIOThreadPool]
    /// Each shard's metrics, in the same order.
    let meters: [StoreMeters]

    /// How long a call may wait for a thread before it is answered 503 without running: by then
    /// the device that asked has given up (its deadline is 30 s), and work for nobody would only
    /// lengthen the queue of a shard that hangs.
    static let longestQueueWait: Duration = .seconds(20)

    /// Pools for `shards` (the stores of the shard map, or the one store), started.
    init(shards: [any ZoneStorage]) {
        pools = shards.map { NIOThreadPool(numberOfThreads: max(System.coreCount, $0.concurrentCalls)) }
        meters = shards.indices.map { StoreMeters(shard: $0) }
        for pool in pools { pool.start() }
    }

    /// Runs `body` on the pool of `account`'s shard (``ShardedZoneStorage/shard(of:among:)``).
    func run<Result: Sendable>(for account: String, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        let shard = ShardedZoneStorage.shard(of: account, among: pools.count)
        let meters = meters[shard]
        let queued = ContinuousClock.now
        return try await pools[shard].runIfActive {
            let started = ContinuousClock.now
            meters.waited(started - queued)
            do {
                guard started - queued < Self.longestQueueWait else {
                    let seconds = String(format: "%.0f", (started - queued) / .seconds(1))
                    throw ZoneStoreUnavailable("the account's store is slow to answer: the call waited \(seconds) s for a thread; try again")
                }
                let result = try body()
                meters.ended(nil, held: ContinuousClock.now - started)
                return result
            } catch {
                meters.ended(error, held: ContinuousClock.now - started)
                throw error
            }
        }
    }

    /// Runs `body` on a thread of the first pool (the store's close at shutdown: it waits on
    /// its connections), then ends every pool.
    func shutdown(after body: @escaping @Sendable () -> Void) async throws {
        try? await pools[0].runIfActive(body)
        for pool in pools { try await pool.shutdownGracefully() }
    }
}
