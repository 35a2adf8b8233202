import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// A synchronizable item deleted and added again is one item to the cloud: the add takes the UUID
/// of the tombstone the delete left, as securityd's insert over a tombstone does
/// (`SecDbItem.c`, `SecDbItemInsert`), so CKKS's queue merges the delete and the add into a modify.
@Suite struct ReAddAfterDeleteTests {
    typealias F = Fixtures
    static let synced = F.query(["sync": .bool(true)])

    static func feed(_ engine: KeychainEngine, after sequence: Int64 = 0) async throws -> [SyncFeedChange] {
        try await engine.syncFeed(keychain: "device-1", after: sequence, limit: 100)
    }

    static func reference(_ result: SecItemResult) -> SecValue? {
        guard result.status == .success, case .data? = result.result else { return nil }
        return result.result
    }

    @Test func aReAddTakesTheTombstonesUUID() async throws {
        let engine = F.engine()
        let item = F.password(["sync": .bool(true), "r_PersistentRef": .bool(true)])
        let first = try #require(Self.reference(await engine.add(item, client: F.one)))
        #expect(await engine.delete(Self.synced, client: F.one).status == .success)
        var again = item
        again["v_Data"] = .data(Data("added again".utf8))
        let second = try #require(Self.reference(await engine.add(again, client: F.one)))
        #expect(second == first, "one UUID for the item, before and after")
        let read = await engine.copyMatching(["v_PersistentRef": first, "r_Data": .bool(true)], client: F.one)
        #expect(read.result == .data(Data("added again".utf8)))
        // A query naming `tomb` reads tombstones beside live items: only the re-added item is left.
        let everything = F.query(["sync": .bool(true), "tomb": .integer(1), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)])
        let left = await engine.copyMatching(everything, client: F.one)
        guard case .array(let rows)? = left.result else {
            Issue.record("no list: \(left)")
            return
        }
        #expect(rows.count == 1, "the tombstone gave way: \(rows)")
    }

    @Test func theFeedReadsTheDeleteAndTheReAddAsOneLiveItem() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password(["sync": .bool(true)]), client: F.one).status == .success)
        let added = try #require(try await Self.feed(engine).last)
        #expect(await engine.delete(Self.synced, client: F.one).status == .success)
        #expect(await engine.add(F.password(["sync": .bool(true), "v_Data": .data(Data("v2".utf8))]), client: F.one).status == .success)

        let changes = try await Self.feed(engine, after: added.sequence)
        #expect(changes.count == 2, "the delete's change and the add's")
        #expect(changes.allSatisfy { $0.item.uuid == added.item.uuid }, "both name the item the cloud holds")
        #expect(changes.allSatisfy { !$0.deleted && $0.item.data == Data("v2".utf8) }, "each reads the item as it is now")
    }

    @Test func aNewKeyOrALocalItemGetsAUUIDOfItsOwn() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice", ["sync": .bool(true)]), client: F.one).status == .success)
        let alice = try #require(try await Self.feed(engine).last)
        #expect(await engine.delete(F.query(["acct": .string("alice"), "sync": .bool(true)]), client: F.one).status == .success)

        #expect(await engine.add(F.password("bob", ["sync": .bool(true)]), client: F.one).status == .success)
        let bob = try #require(try await Self.feed(engine).last)
        #expect(bob.item.uuid != alice.item.uuid, "another primary key is another item")
        let local = await engine.add(F.password("alice", ["r_PersistentRef": .bool(true)]), client: F.one)
        #expect(Self.reference(local) != .data(alice.item.persistentRef), "sync is part of the key: a local alice is new")
        let tombstone = F.query(["acct": .string("alice"), "sync": .bool(true), "tomb": .integer(1)])
        #expect(await engine.copyMatching(tombstone, client: F.one).status == .success, "alice's tombstone stays")
    }
}
