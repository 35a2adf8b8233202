import CloudStore
import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import Synchronization
import Testing

/// cloudd's SQLite zones: the cloud's rules on a real database file, kept across a restart, and
/// a tag check that two writers at once cannot both pass.
@Suite struct SQLiteZoneStorageTests {
    let zone = ZoneID(account: "alice@example.com", view: "Applications")

    func withStore(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "zones-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func recordsAndTheirLogOutliveTheProcess() throws {
        try withStore { folder in
            let id = UUID()
            let zones = CloudZones(storage: try SQLiteZoneStorage(directory: folder))
            _ = try zones.modify([RecordWrite(uuid: id, payload: Data("v1".utf8), expectedTag: nil)], in: zone)
            let token = try zones.changes(in: zone, since: nil).token
            let reopened = CloudZones(storage: try SQLiteZoneStorage(directory: folder))
            let tag = try #require(try reopened.storage.record(id, in: zone)?.changeTag)
            _ = try reopened.modify([RecordWrite(uuid: id, payload: nil, expectedTag: tag)], in: zone)
            #expect(try reopened.changes(in: zone, since: token).changes == [.deleted(id)])
            #expect(try reopened.changes(in: zone, since: nil).changes.isEmpty, "from nothing, a deleted record is not news")
            #expect(try reopened.changes(in: ZoneID(account: "bob@example.com", view: "Applications"), since: nil).changes.isEmpty)
        }
    }

    @Test func twoWritersWithOneTagCannotBothWin() throws {
        try withStore { folder in
            let id = UUID()
            let zones = CloudZones(storage: try SQLiteZoneStorage(directory: folder))
            guard case .saved(let tag)? = try zones.modify([RecordWrite(uuid: id, payload: Data("v1".utf8), expectedTag: nil)], in: zone)[id] else {
                Issue.record("not saved")
                return
            }
            // Eight writers at once, each with the tag it read: the check and the write are one
            // transaction, so exactly one wins.
            let collected = Mutex<[WriteOutcome?]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let outcome =
                    (try? zones.modify([RecordWrite(uuid: id, payload: Data("writer \(index)".utf8), expectedTag: tag)], in: zone)[id]) ?? nil
                collected.withLock { $0.append(outcome) }
            }
            let results = collected.withLock { $0 }
            let saved = results.filter { if case .saved? = $0 { true } else { false } }
            #expect(saved.count == 1, "\(results)")
        }
    }

    @Test func twoDevicesConvergeThroughTheDatabase() throws {
        try withStore { folder in
            let zones = CloudZones(storage: try SQLiteZoneStorage(directory: folder))
            let (phone, mac) = (TestDevice(zones), TestDevice(zones))
            phone.handle(.wentOnline)
            mac.handle(.wentOnline)
            let item = password("alice", "v1")
            phone.write(item)
            mac.handle(.zoneChanged)
            mac.delete(item.uuid)
            phone.handle(.zoneChanged)
            #expect(phone.keychain.isEmpty && mac.keychain.isEmpty)
            #expect(try zones.storage.record(item.uuid, in: phone.zone) == nil)
        }
    }
}
