import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import Testing

/// What every ``ZoneStorage`` must do when `kclab reset` erases a zone, whatever the engine.
extension ZoneStorageContract {
    /// An erase empties the zone, its records and its log, and numbers on: the zone's number
    /// grows by one, a token from before expires while a fetch of everything finds nothing, a
    /// write after it numbers from the erase, and another view or account keeps its own. A zone
    /// with nothing since its last erase, or one that never was, is left as it is. Kept across
    /// a reopen (`open` a second time).
    static func anEraseEmptiesTheZoneAndExpiresItsTokens(_ open: () throws -> any ZoneStorage) throws {
        let zones = CloudZones(storage: try open())
        let (first, second) = (UUID(), UUID())
        let passwords = ZoneID(account: zone.account, view: "Passwords")
        let bobs = ZoneID(account: "bob@example.com", view: zone.view)
        _ = try zones.apply(
            [
                RecordWrite(uuid: first, payload: Data("v1".utf8), expectedTag: nil),
                RecordWrite(uuid: second, payload: Data("v2".utf8), expectedTag: nil),
            ],
            in: zone
        )
        let midway = try zones.changes(in: zone, since: nil).token
        let tag = try #require(try zones.storage.record(first, in: zone)?.changeTag)
        _ = try zones.apply([RecordWrite(uuid: first, payload: nil, expectedTag: tag)], in: zone)
        _ = try zones.apply([RecordWrite(uuid: UUID(), payload: Data("p".utf8), expectedTag: nil)], in: passwords)
        _ = try zones.apply([RecordWrite(uuid: UUID(), payload: Data("b".utf8), expectedTag: nil)], in: bobs)
        let before = try zones.changes(in: zone, since: nil).token
        #expect(midway == "2" && before == "3")

        #expect(try zones.storage.erase(zone) == ZoneErasure(records: 1, changes: 3, latest: 4), "one record, a log of three, the fourth number")
        #expect(try zones.storage.records(in: zone).isEmpty && zones.storage.record(second, in: zone) == nil)
        #expect(try zones.storage.latest(in: zone) == 4, "the erase takes the next number: a zone's numbers only grow")
        #expect(throws: ZoneChangesError.tokenExpired, "a token from before the erase") { try zones.changes(in: zone, since: before) }
        #expect(throws: ZoneChangesError.tokenExpired, "any token from before the erase") { try zones.changes(in: zone, since: midway) }
        let everything = try zones.changes(in: zone, since: nil)
        #expect(everything.changes.isEmpty && everything.token == "4" && !everything.moreComing, "a fetch of everything finds nothing")
        #expect(try zones.changes(in: zone, since: "0").changes.isEmpty, "the token of a zone that had nothing still reads from the start")
        #expect(try zones.storage.changes(in: zone, after: 0, limit: 100).erased == 4)

        // The record is new again: saved without a tag, numbered after the erase.
        let again = try zones.apply([RecordWrite(uuid: second, payload: Data("v3".utf8), expectedTag: nil)], in: zone)
        guard case .saved? = again.outcomes[second] else {
            Issue.record("a record of the erased zone did not save as new: \(again.outcomes)")
            return
        }
        #expect(again.latest == 5)
        #expect(try zones.changes(in: zone, since: "4").changes.map(\.uuid) == [second])

        // The other view and the other account keep everything.
        #expect(try zones.storage.records(in: passwords).count == 1 && zones.storage.latest(in: passwords) == 1)
        #expect(try zones.storage.records(in: bobs).count == 1 && zones.storage.latest(in: bobs) == 1)

        #expect(try zones.storage.erase(zone) == ZoneErasure(records: 1, changes: 1, latest: 6))
        #expect(try zones.storage.erase(zone) == ZoneErasure(records: 0, changes: 0, latest: 6), "nothing since the last erase: nothing moves")
        let never = ZoneID(account: "carol@example.com", view: "Backstop")
        #expect(try zones.storage.erase(never) == ZoneErasure(records: 0, changes: 0, latest: 0), "a zone that never was")
        #expect(try zones.storage.latest(in: never) == 0)

        let reopened = CloudZones(storage: try open())
        #expect(try reopened.storage.latest(in: zone) == 6, "the erase's number outlives the process")
        #expect(throws: ZoneChangesError.tokenExpired) { try reopened.changes(in: zone, since: "5") }
        #expect(try reopened.changes(in: zone, since: nil).token == "6")
    }

    /// `kclab reset`'s case, on engines: each case adds an item with the same primary key on one
    /// device (a new UUID each time) and checks that another device gets it, then the zone is
    /// erased and both devices start afresh (fresh engines, empty keychains). Every case sees
    /// what the first saw: one record in the cloud, the other device with this case's secret.
    static func eachCaseAfterAnEraseIsLikeTheFirst(_ storage: any ZoneStorage) throws {
        let zones = CloudZones(storage: storage)
        for number in 1...5 {
            let (phone, mac) = (TestDevice(zones), TestDevice(zones))
            phone.handle(.wentOnline)
            mac.handle(.wentOnline)
            phone.write(password("alice", "case \(number)"))
            mac.handle(.zoneChanged)
            #expect(mac.secret("alice") == "case \(number)", "case \(number)")
            #expect(try storage.records(in: phone.zone).count == 1, "case \(number): the cloud holds this case's record alone")
            #expect(phone.keychain.count == 1 && mac.keychain.count == 1, "case \(number)")
            try storage.erase(phone.zone)
        }
    }

    /// A device that missed the erase (its engine kept its token and mirror) hears that the zone
    /// changed, finds its token expired, fetches everything, and drops what the cloud no longer
    /// holds; then it syncs as any other.
    static func aDeviceThatMissedTheEraseFetchesEverything(_ storage: any ZoneStorage) throws {
        let zones = CloudZones(storage: storage)
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        phone.handle(.wentOnline)
        mac.handle(.wentOnline)
        let old = password("alice", "before")
        phone.write(old)
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "before")

        let erased = try storage.erase(mac.zone)
        mac.handle(.zoneChanged)
        #expect(mac.keychain.isEmpty && mac.engine.mirror.isEmpty, "the cloud no longer has it")
        #expect(mac.engine.token == String(erased.latest))

        let fresh = TestDevice(zones)
        fresh.handle(.wentOnline)
        fresh.write(password("alice", "after"))
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "after")
    }
}
