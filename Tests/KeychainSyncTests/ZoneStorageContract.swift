import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import Synchronization
import Testing

/// What every ``ZoneStorage`` of cloudd must do, whatever the engine (SQLite, PostgreSQL): the
/// suites of each engine run these with their own stores.
enum ZoneStorageContract {
    static let zone = ZoneID(account: "alice@example.com", view: "Applications")

    /// Records and their log are kept: a store opened again (`open` a second time) has them.
    static func recordsAndTheirLogAreKept(_ open: () throws -> any ZoneStorage) throws {
        let id = UUID()
        let zones = CloudZones(storage: try open())
        let saved = try zones.apply([RecordWrite(uuid: id, payload: Data("v1".utf8), expectedTag: nil)], in: zone)
        #expect(saved.latest == 1, "a write says the zone's number at its commit")
        let refused = try zones.apply([RecordWrite(uuid: id, payload: Data("v2".utf8), expectedTag: "stale")], in: zone)
        #expect(refused.latest == 1, "and so does a refused one, which moves nothing")
        let token = try zones.changes(in: zone, since: nil).token
        let reopened = CloudZones(storage: try open())
        let tag = try #require(try reopened.storage.record(id, in: zone)?.changeTag)
        _ = try reopened.modify([RecordWrite(uuid: id, payload: nil, expectedTag: tag)], in: zone)
        #expect(try reopened.changes(in: zone, since: token).changes == [.deleted(id)])
        #expect(try reopened.changes(in: zone, since: nil).changes.isEmpty, "from nothing, a deleted record is not news")
        #expect(try reopened.changes(in: ZoneID(account: "bob@example.com", view: "Applications"), since: nil).changes.isEmpty)
        #expect(try reopened.storage.latest(in: zone) == 2, "a save and a delete")
        #expect(try reopened.storage.latest(in: ZoneID(account: "bob@example.com", view: "Applications")) == 0)
        #expect(try reopened.storage.latest(in: ZoneID(account: zone.account, view: "Passwords")) == 0)
    }

    /// Eight writers at once, each with the tag it read (`stores` give each its own store, or one
    /// shared): the check and the write are one transaction, so exactly one wins, and the zone's
    /// log numbers its changes with no gap and no repeat.
    static func writersWithOneTagCannotBothWin(_ stores: [any ZoneStorage]) throws {
        let id = UUID()
        let first = CloudZones(storage: stores[0])
        guard case .saved(let tag)? = try first.modify([RecordWrite(uuid: id, payload: Data("v1".utf8), expectedTag: nil)], in: zone)[id] else {
            Issue.record("not saved")
            return
        }
        let collected = Mutex<[WriteOutcome?]>([])
        let numbers = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let zones = CloudZones(storage: stores[index % stores.count])
            // Each writer also adds a record of its own, so every one of them changes the log.
            let own = RecordWrite(uuid: UUID(), payload: Data("own \(index)".utf8), expectedTag: nil)
            if let applied = try? zones.apply([own], in: zone) { numbers.withLock { $0.append(applied.latest) } }
            let contested = try? zones.apply([RecordWrite(uuid: id, payload: Data("writer \(index)".utf8), expectedTag: tag)], in: zone)
            if let contested, case .saved? = contested.outcomes[id] { numbers.withLock { $0.append(contested.latest) } }
            collected.withLock { $0.append(contested?.outcomes[id]) }
        }
        let results = collected.withLock { $0 }
        let saved = results.filter { if case .saved? = $0 { true } else { false } }
        #expect(saved.count == 1, "\(results)")
        let log = try stores[0].changes(in: zone, after: 0, limit: 1000)
        #expect(log.changes.map(\.sequence) == Array(1...log.latest), "the log's numbers follow each other")
        #expect(log.latest == 1 + 8 + 1, "the first save, eight own records, one winner")
        #expect(try stores[0].latest(in: zone) == log.latest)
        // Each batch that moved the log said the number it moved it to: each one once.
        #expect(numbers.withLock { $0.sorted() } == Array(2...log.latest), "\(numbers.withLock { $0 })")
    }

    /// Two devices' engines converge through the store.
    static func twoDevicesConverge(_ storage: any ZoneStorage) throws {
        let zones = CloudZones(storage: storage)
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        phone.handle(.wentOnline)
        mac.handle(.wentOnline)
        let item = password("alice", "v1")
        phone.write(item)
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "v1")
        mac.delete(item.uuid)
        phone.handle(.zoneChanged)
        #expect(phone.keychain.isEmpty && mac.keychain.isEmpty)
        #expect(try zones.storage.record(item.uuid, in: phone.zone) == nil)
    }
}
