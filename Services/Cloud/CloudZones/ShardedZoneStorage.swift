public import Foundation
import StableHash

/// Accounts spread over several stores (shards) by a stable hash of the account: every zone of an
/// account lives on one shard, so a batch stays one transaction of one store, and a shard that is
/// down costs only its own accounts. The shard map is the order of the stores in cloudd's
/// configuration (`--store` given once per shard); changing the number of shards moves accounts,
/// which the lab does not do for you (docs/scale.md).
public final class ShardedZoneStorage: ZoneStorage {
    public let shards: [any ZoneStorage]

    public init(shards: [any ZoneStorage]) {
        precondition(!shards.isEmpty, "a sharded store needs a shard")
        self.shards = shards
    }

    /// The shard of `account` among `count`: FNV-1a (64-bit) of its UTF-8 bytes, modulo `count`.
    /// The same in every process and on every machine, unlike Swift's seeded `Hasher`.
    public static func shard(of account: String, among count: Int) -> Int {
        Int(FNV1a.hash(account.utf8) % UInt64(count))
    }

    func store(_ zone: ZoneID) -> any ZoneStorage {
        shards[Self.shard(of: zone.account, among: shards.count)]
    }

    public func record(_ uuid: UUID, in zone: ZoneID) throws -> CloudRecord? {
        try store(zone).record(uuid, in: zone)
    }

    @discardableResult
    public func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> (result: Result, latest: Int) {
        try store(zone).write(in: zone, decide)
    }

    public func records(in zone: ZoneID) throws -> [CloudRecord] {
        try store(zone).records(in: zone)
    }

    public func changes(
        in zone: ZoneID,
        after sequence: Int,
        limit: Int
    ) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int, erased: Int) {
        try store(zone).changes(in: zone, after: sequence, limit: limit)
    }

    public func latest(in zone: ZoneID) throws -> Int {
        try store(zone).latest(in: zone)
    }

    @discardableResult
    public func erase(_ zone: ZoneID) throws -> ZoneErasure {
        try store(zone).erase(zone)
    }

    public var concurrentCalls: Int { shards.reduce(0) { $0 + $1.concurrentCalls } }

    public func close() {
        for shard in shards { shard.close() }
    }
}
