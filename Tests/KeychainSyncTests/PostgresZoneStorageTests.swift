import CloudPostgres
import CloudZones
import Foundation
import Logging
import Testing

/// cloudd's zones on PostgreSQL: the same store contract as SQLite, on a real server of the
/// test's own (``ThrowawayPostgres``), and two connections at once, as two cloudd replicas on one
/// database would write.
@Suite(.serialized) struct PostgresZoneStorageTests {
    static let logger = Logger(label: "postgres-zone-storage-tests")

    func withServer(_ body: (ThrowawayPostgres) throws -> Void) throws {
        let server = try ThrowawayPostgres()
        defer { server.stop() }
        try body(server)
    }

    func open(_ server: ThrowawayPostgres) throws -> PostgresZoneStorage {
        try PostgresZoneStorage(configuration: server.configuration, logger: Self.logger)
    }

    @Test func recordsAndTheirLogOutliveTheConnection() throws {
        try withServer { server in
            var opened: [PostgresZoneStorage] = []
            defer { for storage in opened { storage.close() } }
            try ZoneStorageContract.recordsAndTheirLogAreKept {
                let storage = try open(server)
                opened.append(storage)
                return storage
            }
        }
    }

    @Test func writersOnTwoConnectionsWithOneTagCannotBothWin() throws {
        try withServer { server in
            let stores = [try open(server), try open(server)]
            defer { for storage in stores { storage.close() } }
            try ZoneStorageContract.writersWithOneTagCannotBothWin(stores)
        }
    }

    @Test func twoDevicesConvergeThroughTheDatabase() throws {
        try withServer { server in
            let storage = try open(server)
            defer { storage.close() }
            try ZoneStorageContract.twoDevicesConverge(storage)
        }
    }
}
