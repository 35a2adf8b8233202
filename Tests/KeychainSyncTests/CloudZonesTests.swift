import CloudZones
import Foundation
import Testing

/// The cloud's rules for a zone: tags checked in atomic batches, changes since a token.
@Suite struct CloudZonesTests {
    let zones = CloudZones(storage: InMemoryZoneStorage())
    let zone = ZoneID(account: "alice@example.com", view: "Applications")

    @Test func aStaleTagIsRefusedWithTheServersRecordAndTheBatchIsAtomic() throws {
        let a = UUID()
        let b = UUID()
        guard case .saved(let tag)? = try zones.modify([RecordWrite(uuid: a, payload: Data("1".utf8), expectedTag: nil)], in: zone)[a] else {
            Issue.record("a new record was not saved")
            return
        }
        _ = try zones.modify([RecordWrite(uuid: a, payload: Data("2".utf8), expectedTag: tag)], in: zone)
        let stale = try zones.modify(
            [RecordWrite(uuid: b, payload: Data("b".utf8), expectedTag: nil), RecordWrite(uuid: a, payload: Data("3".utf8), expectedTag: tag)],
            in: zone
        )
        guard case .conflict(let server?)? = stale[a] else {
            Issue.record("a stale tag was accepted: \(stale)")
            return
        }
        #expect(server.payload == Data("2".utf8))
        #expect(stale[b] == .notAttempted)
        #expect(try zones.storage.record(b, in: zone) == nil, "nothing of a refused batch is applied")
    }

    /// The tests' own storage keeps the erase contract the real ones keep.
    @Test func anEraseEmptiesTheZoneAndExpiresItsTokens() throws {
        let storage = InMemoryZoneStorage()
        try ZoneStorageContract.anEraseEmptiesTheZoneAndExpiresItsTokens { storage }
        try ZoneStorageContract.eachCaseAfterAnEraseIsLikeTheFirst(InMemoryZoneStorage())
        try ZoneStorageContract.aDeviceThatMissedTheEraseFetchesEverything(InMemoryZoneStorage())
    }

    @Test func anAccountsZonesAreErasedByView() throws {
        _ = try zones.modify([RecordWrite(uuid: UUID(), payload: Data("1".utf8), expectedTag: nil)], in: zone)
        let erased = try zones.erase(account: zone.account, views: ["Applications", "Passwords"])
        #expect(
            erased == ["Applications": ZoneErasure(records: 1, changes: 1, latest: 2), "Passwords": ZoneErasure(records: 0, changes: 0, latest: 0)]
        )
        #expect(try zones.storage.records(in: zone).isEmpty)
    }

    @Test func changesSinceATokenGiveEachRecordsLatestChange() throws {
        let ids = (0..<4).map { _ in UUID() }
        for id in ids { _ = try zones.modify([RecordWrite(uuid: id, payload: Data("v1".utf8), expectedTag: nil)], in: zone) }
        let first = try zones.changes(in: zone, since: nil, limit: 10)
        #expect(first.changes.count == 4 && !first.moreComing)
        let tag = try #require(try zones.storage.record(ids[0], in: zone)?.changeTag)
        _ = try zones.modify([RecordWrite(uuid: ids[0], payload: Data("v2".utf8), expectedTag: tag)], in: zone)
        _ = try zones.modify([RecordWrite(uuid: ids[1], payload: nil, expectedTag: nil)], in: zone)
        let since = try zones.changes(in: zone, since: first.token, limit: 10)
        #expect(since.changes.map(\.uuid) == [ids[0], ids[1]])
        #expect(since.changes.last == .deleted(ids[1]))
        let paged = try zones.changes(in: zone, since: nil, limit: 2)
        #expect(paged.moreComing && paged.changes.count == 2)
        #expect(throws: ZoneChangesError.tokenExpired) { try zones.changes(in: zone, since: "999", limit: 10) }
        #expect(throws: ZoneChangesError.tokenExpired) { try zones.changes(in: zone, since: "not a token", limit: 10) }
    }

    @Test func deletingARecordThatIsGoneIsAConflictWithNoRecord() throws {
        #expect(try zones.modify([RecordWrite(uuid: UUID(), payload: nil, expectedTag: "t")], in: zone).values.first == .conflict(server: nil))
    }
}
