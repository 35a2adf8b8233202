import CloudStore
import CloudZones
import Foundation
import Testing

/// Accounts spread over shards by a stable hash: the store contract holds over two SQLite shards,
/// an account's zones all live on its one shard, and the hash is FNV-1a, the same everywhere.
@Suite struct ShardedZoneStorageTests {
    func withShards(_ body: (_ open: () throws -> [SQLiteZoneStorage]) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "kclab-shards-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body { [try SQLiteZoneStorage(directory: folder.appending(path: "0")), try SQLiteZoneStorage(directory: folder.appending(path: "1"))] }
    }

    @Test func theHashIsFNV1aOfTheAccount() {
        // FNV-1a 64 of "alice@example.com" is 7422565249724656198 (even), of "bob@example.com"
        // 7043703110816711321 (odd): reckoned apart from this code, so a change of hash shows.
        #expect(ShardedZoneStorage.shard(of: "alice@example.com", among: 2) == 0)
        #expect(ShardedZoneStorage.shard(of: "bob@example.com", among: 2) == 1)
        #expect(ShardedZoneStorage.shard(of: "alice@example.com", among: 1_000_000_007) == Int(7_422_565_249_724_656_198 % UInt64(1_000_000_007)))
        let spread = (0..<1000).map { ShardedZoneStorage.shard(of: "user\($0)@example.com", among: 2) }
        let first = spread.filter { $0 == 0 }.count
        #expect((400...600).contains(first), "a thousand accounts spread about evenly: \(first) on shard 0")
    }

    @Test func recordsAndTheirLogAreKeptOverShards() throws {
        try withShards { open in try ZoneStorageContract.recordsAndTheirLogAreKept { ShardedZoneStorage(shards: try open()) } }
    }

    @Test func writersWithOneTagCannotBothWinOverShards() throws {
        try withShards { open in try ZoneStorageContract.writersWithOneTagCannotBothWin([ShardedZoneStorage(shards: try open())]) }
    }

    @Test func twoDevicesConvergeOverShards() throws {
        try withShards { open in try ZoneStorageContract.twoDevicesConverge(ShardedZoneStorage(shards: try open())) }
    }

    @Test func anEraseEmptiesTheZoneAndExpiresItsTokensOverShards() throws {
        try withShards { open in try ZoneStorageContract.anEraseEmptiesTheZoneAndExpiresItsTokens { ShardedZoneStorage(shards: try open()) } }
    }

    @Test func eachCaseAfterAnEraseIsLikeTheFirstOverShards() throws {
        try withShards { open in try ZoneStorageContract.eachCaseAfterAnEraseIsLikeTheFirst(ShardedZoneStorage(shards: try open())) }
    }

    @Test func anAccountsZonesLiveOnItsShardAlone() throws {
        try withShards { open in
            let shards = try open()
            let sharded = ShardedZoneStorage(shards: shards)
            let record = CloudRecord(uuid: UUID(), changeTag: "t1", payload: Data("sealed".utf8))
            for account in ["alice@example.com", "bob@example.com"] {
                for view in ["Passwords", "Applications"] {
                    try sharded.write(in: ZoneID(account: account, view: view)) { _ in (changes: [RecordChange.saved(record)], result: ()) }
                }
            }
            for view in ["Passwords", "Applications"] {
                #expect(try shards[0].records(in: ZoneID(account: "alice@example.com", view: view)) == [record])
                #expect(try shards[1].records(in: ZoneID(account: "alice@example.com", view: view)).isEmpty)
                #expect(try shards[1].records(in: ZoneID(account: "bob@example.com", view: view)) == [record])
                #expect(try shards[0].records(in: ZoneID(account: "bob@example.com", view: view)).isEmpty)
            }
        }
    }
}
