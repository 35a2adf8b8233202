import CloudPostgres
import CloudZones
import Foundation
import LabControl
import Logging
import PostgresInstance
import Testing

/// A PostgreSQL server that hangs without refusing (frozen with SIGSTOP) costs a store call its
/// round-trip limit, then a retryable ``ZoneStoreUnavailable``, on an open connection and on a
/// new one alike; thawed, the store's next call is served, and what it wrote before is there.
@Suite(.serialized) struct PostgresRoundTripTests {
    @Test func aServerThatHangsFailsTheCallRetryably() throws {
        let server = try PostgresInstance()
        defer { server.stop() }
        let storage = try PostgresZoneStorage(
            servers: try PostgresLocation(url: server.url).servers(password: nil),
            connections: 2,
            roundTripLimit: .seconds(1),
            logger: Logger(label: "postgres-round-trip-tests")
        )
        defer { storage.close() }
        let zone = ZoneID(account: "alice@example.com", view: "Passwords")
        let record = CloudRecord(uuid: UUID(), changeTag: "t1", payload: Data("sealed".utf8))
        try storage.write(in: zone) { _ in ([.saved(record)], ()) }

        try server.pause()
        defer { server.resume() }
        // The first call waits on the connection it has; the second opens one, which never
        // hears the server's greeting.
        for call in ["on its open connection", "on a new connection"] {
            #expect(throws: ZoneStoreUnavailable.self, "a call \(call) to a frozen server") { try storage.latest(in: zone) }
        }
        server.resume()
        #expect(try storage.latest(in: zone) == 1)
        #expect(try storage.record(record.uuid, in: zone) == record)
    }
}
