import CloudStore
import CloudZones
import Foundation
import Testing

/// cloudd's SQLite zones: the store contract on a real database file, kept across a reopen.
@Suite struct SQLiteZoneStorageTests {
    func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "zones-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func recordsAndTheirLogOutliveTheProcess() throws {
        try withFolder { folder in try ZoneStorageContract.recordsAndTheirLogAreKept { try SQLiteZoneStorage(directory: folder) } }
    }

    @Test func twoWritersWithOneTagCannotBothWin() throws {
        try withFolder { folder in try ZoneStorageContract.writersWithOneTagCannotBothWin([try SQLiteZoneStorage(directory: folder)]) }
    }

    @Test func twoDevicesConvergeThroughTheDatabase() throws {
        try withFolder { folder in try ZoneStorageContract.twoDevicesConverge(try SQLiteZoneStorage(directory: folder)) }
    }

    @Test func anEraseEmptiesTheZoneAndExpiresItsTokens() throws {
        try withFolder { folder in try ZoneStorageContract.anEraseEmptiesTheZoneAndExpiresItsTokens { try SQLiteZoneStorage(directory: folder) } }
    }

    @Test func eachCaseAfterAnEraseIsLikeTheFirst() throws {
        try withFolder { folder in try ZoneStorageContract.eachCaseAfterAnEraseIsLikeTheFirst(try SQLiteZoneStorage(directory: folder)) }
    }

    @Test func aDeviceThatMissedTheEraseFetchesEverything() throws {
        try withFolder { folder in try ZoneStorageContract.aDeviceThatMissedTheEraseFetchesEverything(try SQLiteZoneStorage(directory: folder)) }
    }
}
