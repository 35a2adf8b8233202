import CloudPostgres
import CloudZones
import Foundation
import Logging
import PostgresInstance
import Testing

/// A shard as a primary and a synchronous standby (`postgres://…@PRIMARY,STANDBY/…`): the storage
/// keeps to the server that takes writes whichever order the URL names them in; once the primary
/// is lost and the standby promoted, the storage's next connection finds the new primary, and
/// every write acknowledged before is there.
@Suite(.serialized) struct PostgresStandbyTests {
    static let logger = Logger(label: "postgres-standby-tests")

    @Test func aPromotedStandbyTakesOverWithEveryAcknowledgedWrite() throws {
        let primary = try PostgresInstance(durable: true)
        defer { primary.stop() }
        let standby = try PostgresInstance(standbyOf: primary)
        defer { standby.stop() }
        try primary.requireSynchronousStandby()
        #expect(try standby.sql("SELECT pg_is_in_recovery()") == "t")

        // The standby is named first: a connection to it is refused for the primary's.
        let url = "postgres://kclab@127.0.0.1:\(standby.port),127.0.0.1:\(primary.port)/postgres"
        let storage = try PostgresZoneStorage(servers: try PostgresLocation(url: url).servers(password: nil), logger: Self.logger)
        defer { storage.close() }
        let zone = ZoneID(account: "alice@example.com", view: "Passwords")
        let records = (0..<20).map { CloudRecord(uuid: UUID(), changeTag: "t\($0)", payload: Data("sealed \($0)".utf8)) }
        for record in records {
            try storage.write(in: zone) { _ in (changes: [RecordChange.saved(record)], result: ()) }
        }

        try primary.crash()
        #expect(throws: ZoneStoreUnavailable.self, "the primary is gone, the standby not yet promoted") { try storage.records(in: zone) }
        try standby.promote()
        let kept = try storage.records(in: zone)
        #expect(Set(kept.map(\.uuid)) == Set(records.map(\.uuid)) && kept.count == records.count, "every acknowledged write is on the new primary")
        let after = CloudRecord(uuid: UUID(), changeTag: "after", payload: Data("sealed after".utf8))
        try storage.write(in: zone) { _ in (changes: [RecordChange.saved(after)], result: ()) }
        #expect(try storage.changes(in: zone, after: 0, limit: 100).latest == 21, "the log goes on from the standby's copy, with no gap")
    }
}
