import CloudPostgres
import CloudZones
import Foundation
import Logging
import PostgresInstance
import Synchronization
import Testing

/// cloudd's zones on PostgreSQL: the same store contract as SQLite, on a real server of the
/// test's own (``PostgresInstance``), and two connections at once, as two cloudd replicas on one
/// database would write.
@Suite(.serialized) struct PostgresZoneStorageTests {
    static let logger = Logger(label: "postgres-zone-storage-tests")

    func withServer(_ body: (PostgresInstance) throws -> Void) throws {
        let server = try PostgresInstance()
        defer { server.stop() }
        try body(server)
    }

    func withServerAsync(_ body: (PostgresInstance) async throws -> Void) async throws {
        let server = try PostgresInstance()
        defer { server.stop() }
        try await body(server)
    }

    func open(_ server: PostgresInstance) throws -> PostgresZoneStorage {
        try PostgresZoneStorage(servers: try PostgresLocation(url: server.url).servers(password: nil), logger: Self.logger)
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

    @Test func anEraseEmptiesTheZoneAndExpiresItsTokens() throws {
        try withServer { server in
            var opened: [PostgresZoneStorage] = []
            defer { for storage in opened { storage.close() } }
            try ZoneStorageContract.anEraseEmptiesTheZoneAndExpiresItsTokens {
                let storage = try open(server)
                opened.append(storage)
                return storage
            }
        }
    }

    @Test func eachCaseAfterAnEraseIsLikeTheFirst() throws {
        try withServer { server in
            let storage = try open(server)
            defer { storage.close() }
            try ZoneStorageContract.eachCaseAfterAnEraseIsLikeTheFirst(storage)
            try ZoneStorageContract.aDeviceThatMissedTheEraseFetchesEverything(storage)
        }
    }

    /// An erase is heard by the other replicas' feeds as a batch is, with the zone's number after
    /// it; a zone with nothing to erase sends nothing.
    @Test func theFeedHearsAnErase() async throws {
        try await withServerAsync { server in
            let writer = try open(server)
            defer { writer.close() }
            let heard = Mutex<[ZoneNotification]>([])
            let resumes = Atomic<Int>(0)
            let feed = PostgresZoneFeed(servers: try PostgresLocation(url: server.url).servers(password: nil), logger: Self.logger)
            let listening = Task {
                await feed.run(onChange: { zone in heard.withLock { $0.append(zone) } }, onResume: { resumes.add(1, ordering: .relaxed) })
            }
            defer { listening.cancel() }
            func until(_ condition: () -> Bool) async throws {
                for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
            }
            try await until { resumes.load(ordering: .relaxed) == 1 }
            let zone = ZoneID(account: "alice@example.com", view: "Passwords")
            let record = CloudRecord(uuid: UUID(), changeTag: "t1", payload: Data("sealed".utf8))
            try writer.write(in: zone) { _ in (changes: [RecordChange.saved(record)], result: ()) }
            #expect(try writer.erase(ZoneID(account: "bob@example.com", view: "Passwords")).erased == false)
            #expect(try writer.erase(zone) == ZoneErasure(records: 1, changes: 1, latest: 2))
            try await until { heard.withLock { $0.count } == 2 }
            #expect(heard.withLock { $0 } == [ZoneNotification(zone: zone, latest: 1), ZoneNotification(zone: zone, latest: 2)])
        }
    }

    /// Two replicas on one database: a batch one commits is heard by the other's feed (and an
    /// empty batch is not); the server restarts, the storage opens its connection again, the
    /// feed listens again and says so (its waiters then look at their tokens), and hears on.
    @Test func theFeedHearsTheOtherReplicaAndComesBackAfterARestart() async throws {
        try await withServerAsync { server in
            let writer = try open(server)
            defer { writer.close() }
            let heard = Mutex<[ZoneNotification]>([])
            let resumes = Atomic<Int>(0)
            let feed = PostgresZoneFeed(servers: try PostgresLocation(url: server.url).servers(password: nil), logger: Self.logger)
            let listening = Task {
                await feed.run(onChange: { zone in heard.withLock { $0.append(zone) } }, onResume: { resumes.add(1, ordering: .relaxed) })
            }
            defer { listening.cancel() }
            func until(_ condition: () -> Bool) async throws {
                for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
            }
            try await until { resumes.load(ordering: .relaxed) == 1 }
            #expect(resumes.load(ordering: .relaxed) == 1, "the feed never started listening")

            let zone = ZoneID(account: "alice@example.com", view: "Passwords")
            let record = CloudRecord(uuid: UUID(), changeTag: "t1", payload: Data("sealed".utf8))
            try writer.write(in: zone) { _ in (changes: [RecordChange.saved(record)], result: ()) }
            try writer.write(in: ZoneID(account: "bob@example.com", view: "Passwords")) { _ in (changes: [], result: ()) }
            try await until { !heard.withLock { $0.isEmpty } }
            #expect(heard.withLock { $0 } == [ZoneNotification(zone: zone, latest: 1)], "one zone changed, once, to its first change")

            server.stop(removing: false)
            #expect(throws: (any Error).self) { try writer.records(in: zone) }
            try server.start()
            #expect(try writer.records(in: zone) == [record], "the storage connects again")
            try await until { resumes.load(ordering: .relaxed) == 2 }
            #expect(resumes.load(ordering: .relaxed) == 2, "the feed listens again and says so")
            let later = ZoneID(account: "alice@example.com", view: "Applications")
            try writer.write(in: later) { _ in (changes: [RecordChange.saved(record)], result: ()) }
            try await until { heard.withLock { $0.count } == 2 }
            #expect(heard.withLock { $0 } == [ZoneNotification(zone: zone, latest: 1), ZoneNotification(zone: later, latest: 1)])
        }
    }
}
