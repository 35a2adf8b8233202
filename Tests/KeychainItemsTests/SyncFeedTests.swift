import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// What keychaind gives a device's sync engine: each write to a synchronizable item queued with
/// it, and the cloud's copies written without echoing back (docs/icloud-keychain.md).
@Suite struct SyncFeedTests {
    typealias F = Fixtures

    static func feed(_ engine: KeychainEngine, after sequence: Int64 = 0) async throws -> [SyncFeedChange] {
        try await engine.syncFeed(keychain: "device-1", after: sequence, limit: 100)
    }

    @Test func everyWriteToASyncedItemIsQueuedAndLocalOnesAreNot() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("local"), client: F.one).status == .success)
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: F.one).status == .success)
        let update = F.query(["acct": .string("synced"), "sync": .bool(true)])
        #expect(await engine.update(update, attributesToUpdate: ["v_Data": .data(Data("v2".utf8))], client: F.one).status == .success)
        #expect(await engine.delete(update, client: F.one).status == .success)

        let changes = try await Self.feed(engine)
        #expect(changes.map(\.deleted) == [true, true, true], "each change reads the item as it is now: deleted")
        #expect(Set(changes.map(\.item.uuid)).count == 1, "the tombstone keeps the item's UUID")
        #expect(changes.allSatisfy { $0.item.attributes["acct"] == .string("synced") })
        #expect(changes.map(\.sequence) == changes.map(\.sequence).sorted())
    }

    @Test func aLiveChangeCarriesTheSecret() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: F.one).status == .success)
        let change = try #require(try await Self.feed(engine).first)
        #expect(!change.deleted)
        #expect(change.item.data == Data("s3cret-synced".utf8))
        try await engine.forgetSyncChanges(keychain: "device-1", through: change.sequence)
        #expect(try await Self.feed(engine).isEmpty, "taken changes are forgotten")
    }

    @Test func makingAnItemLocalTakesItOutOfTheCloud() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: F.one).status == .success)
        let query = F.query(["acct": .string("synced"), "sync": .bool(true)])
        #expect(await engine.update(query, attributesToUpdate: ["sync": .bool(false)], client: F.one).status == .success)
        #expect(try await Self.feed(engine).map(\.deleted) == [true, true], "both changes read the item as it is now: local")
    }

    /// iCloud Keychain off, "Delete from this device": the groups' synced items go without
    /// tombstones (nothing reaches the cloud); local items and other groups stay.
    @Test func turningSyncOffDeletesOnlyTheNamedGroupsSyncedItems() async throws {
        let engine = F.engine()
        let one = F.client([F.shared, F.appOne])
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: one).status == .success)
        #expect(await engine.add(F.password("local"), client: one).status == .success)
        #expect(await engine.add(F.password("other group", ["sync": .bool(true), "agrp": .string(F.appOne)]), client: one).status == .success)
        let before = try await Self.feed(engine)
        try await engine.forgetSyncChanges(keychain: "device-1", through: before.last?.sequence ?? 0)

        try await engine.applyFromCloud(keychain: "device-1", writes: [], deletes: [], deleteGroups: [F.shared])
        let all = F.query(["sync": .string("syna"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)])
        let left = await engine.copyMatching(all, client: one).result?.array?.compactMap { $0.dictionaryValue?["acct"]?.string }
        #expect(Set(left ?? []) == ["local", "other group"])
        let tombstone = F.query(["acct": .string("synced"), "sync": .bool(true), "tomb": .integer(1)])
        #expect(await engine.copyMatching(tombstone, client: one).status == .itemNotFound, "no tombstone")
        #expect(try await Self.feed(engine).isEmpty, "nothing is queued: the other devices keep theirs")
    }

    @Test func theCloudsCopiesAreWrittenWithoutEchoAndWinOverALocalTwin() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: F.one).status == .success)
        let local = try #require(try await Self.feed(engine).first)
        try await engine.forgetSyncChanges(keychain: "device-1", through: local.sequence)

        var cloudCopy = local.item
        cloudCopy.uuid = UUID()
        cloudCopy.data = Data("from the cloud".utf8)
        cloudCopy.keychain = "elsewhere"
        try await engine.applyFromCloud(keychain: "device-1", writes: [cloudCopy], deletes: [])
        #expect(try await Self.feed(engine).isEmpty, "the cloud's writes do not queue changes")
        let read = await engine.copyMatching(F.query(["sync": .bool(true), "r_Data": .bool(true)]), client: F.one)
        #expect(read.result?.data == Data("from the cloud".utf8), "one item: the cloud's copy replaced its twin")

        try await engine.applyFromCloud(keychain: "device-1", writes: [], deletes: [cloudCopy.uuid])
        #expect(await engine.copyMatching(F.query(["sync": .bool(true)]), client: F.one).status == .itemNotFound)
        let tombstones = F.query(["sync": .bool(true), "tomb": .integer(1)])
        #expect(await engine.copyMatching(tombstones, client: F.one).status == .itemNotFound, "a remote delete leaves no tombstone")
        #expect(try await Self.feed(engine).isEmpty)
    }
}
