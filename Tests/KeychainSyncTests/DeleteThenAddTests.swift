import AppIdentity
import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
import Testing

/// An offline device deletes a synced item the cloud holds and adds it again: its outgoing queue
/// ends with one modify of the cloud's record, not a delete and an add
/// (`CKKSOutgoingQueueEntry.m`, `+withItem:`: a pending delete then an add of the same UUID is a
/// modify; `SecDbItem.c`, `SecDbItemInsert`: the add takes the tombstone's UUID). The device's
/// keychain is a real engine; its feed reaches the view's engine as `AccountSync.take` hands it.
@Suite struct DeleteThenAddTests {
    static let device = "phone"
    let client = ClientContext(
        caller: .app(try! AppID("ABCDE12345.com.example.AppOne")),
        entitledGroups: [try! AccessGroup("ABCDE12345.com.example.AppOne")],
        device: DeviceState(platform: .ios, osVersion: OSVersion(17, 4)),
        deviceKeychain: DeleteThenAddTests.device
    )
    /// The phone's keychain, as keychaind runs it.
    let keychain = KeychainEngine(store: InMemoryItemStore())
    static let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("alice"), "sync": .bool(true)]

    static func password(_ secret: String) -> [String: SecValue] {
        query.merging(["svce": .string("example.com"), "v_Data": .data(Data(secret.utf8))]) { $1 }
    }

    /// An offline engine whose mirror holds the item as the cloud has it; the feed's cursor after it.
    func syncedOffline() async throws -> (engine: SyncEngine, uuid: UUID, cursor: Int64) {
        #expect(await keychain.add(Self.password("first"), client: client).status == .success)
        let added = try #require(try await keychain.syncFeed(keychain: Self.device, after: 0, limit: 10).last)
        var engine = SyncEngine(view: .applications)
        let record = CloudItem(uuid: added.item.uuid, changeTag: "tag-1", item: added.item)
        _ = engine.handle(.fetched([.saved(record)], token: "token-1", moreComing: false, full: false))
        #expect(engine.mirror[added.item.uuid] != nil && !engine.online)
        return (engine, added.item.uuid, added.sequence)
    }

    /// Feeds the keychain's changes after `cursor` to `engine` as `AccountSync.take` does; the new cursor.
    func take(after cursor: Int64, into engine: inout SyncEngine) async throws -> Int64 {
        let changes = try await keychain.syncFeed(keychain: Self.device, after: cursor, limit: 100)
        let local = changes.compactMap { change -> LocalChange? in
            let old = engine.mirror[change.item.uuid]?.item
            if change.deleted, old == nil, engine.outgoing[change.item.uuid] == nil { return nil }
            if !change.deleted, old == change.item, engine.outgoing[change.item.uuid] == nil { return nil }
            return LocalChange(uuid: change.item.uuid, old: old, new: change.deleted ? nil : change.item)
        }
        _ = engine.handle(.localChanges(local))
        return changes.last?.sequence ?? cursor
    }

    @Test func takenTogetherTheyLeaveOneModify() async throws {
        let synced = try await syncedOffline()
        var engine = synced.engine
        #expect(await keychain.delete(Self.query, client: client).status == .success)
        #expect(await keychain.add(Self.password("second"), client: client).status == .success)
        _ = try await take(after: synced.cursor, into: &engine)

        let pending = engine.outgoing.pending
        #expect(pending.count == 1, "\(pending.map { "\($0.action) \($0.uuid)" })")
        #expect(pending.first?.uuid == synced.uuid && pending.first?.action == .modify)
        #expect(pending.first?.item?.data == Data("second".utf8))
    }

    @Test func takenOneByOneTheyLeaveOneModify() async throws {
        let synced = try await syncedOffline()
        var engine = synced.engine
        #expect(await keychain.delete(Self.query, client: client).status == .success)
        let cursor = try await take(after: synced.cursor, into: &engine)
        #expect(engine.outgoing[synced.uuid]?.action == .delete, "the delete waits while the device is offline")

        #expect(await keychain.add(Self.password("second"), client: client).status == .success)
        _ = try await take(after: cursor, into: &engine)
        #expect(engine.outgoing.count == 1, "\(engine.outgoing.pending.map { "\($0.action) \($0.uuid)" })")
        #expect(engine.outgoing[synced.uuid]?.action == .modify)
        #expect(engine.outgoing[synced.uuid]?.item?.data == Data("second".utf8))
    }

    /// Online, the delete is uploaded before the add is taken: the delete fetched back is the
    /// device's own and must neither delete the re-added item nor drop its upload.
    @Test func theDeviceOwnDeleteFetchedBackLeavesTheReAdd() async throws {
        let synced = try await syncedOffline()
        var engine = synced.engine
        let online = engine.handle(.wentOnline)
        if online.contains(where: { if case .fetchChanges = $0 { true } else { false } }) {
            _ = engine.handle(.fetched([], token: "token-1", moreComing: false, full: false))
        }
        #expect(await keychain.delete(Self.query, client: client).status == .success)
        let cursor = try await take(after: synced.cursor, into: &engine)
        #expect(engine.uploading, "the delete is in flight")
        _ = engine.handle(.uploaded([synced.uuid: .deleted]))
        #expect(engine.mirror[synced.uuid] == nil && engine.outgoing[synced.uuid] == nil)

        #expect(await keychain.add(Self.password("second"), client: client).status == .success)
        _ = try await take(after: cursor, into: &engine)
        #expect(engine.outgoing[synced.uuid]?.item?.data == Data("second".utf8), "the re-add waits to upload")

        let echoed = engine.handle(.fetched([.deleted(synced.uuid)], token: "token-2", moreComing: false, full: false))
        let deletes = echoed.filter { if case .deleteLocal = $0 { true } else { false } }
        #expect(deletes.isEmpty, "the device's own delete fetched back deletes nothing: \(echoed)")
        #expect(engine.outgoing[synced.uuid]?.item?.data == Data("second".utf8) || engine.uploading, "the re-add still goes up")
    }
}
