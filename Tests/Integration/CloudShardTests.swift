import CloudAPI
import CloudPostgres
import CloudZones
import DeviceProtocol
import Foundation
import LabControl
import Logging
import NIOHTTP1
import PostgresInstance
import ServiceSupport
import Testing
import WorldTestSupport

/// cloudd over two PostgreSQL shards (`--store` twice): alice's account lives on shard 0, bob's on
/// shard 1 (FNV-1a of the account). With bob's shard stopped, bob's devices get 503
/// `storeUnavailable`, which they retry, while alice's carry on; started again, bob's shard has
/// everything it acknowledged, and takes writes again.
@Suite(.serialized) struct CloudShardTests {
    @Test func aShardThatIsDownCostsOnlyItsOwnAccounts() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let shards = [try PostgresInstance(), try PostgresInstance()]
            defer { for shard in shards { shard.stop() } }
            try await CloudReplicas.with(lab, count: 1, stores: shards.map(\.url)) { replicas in
                try await Self.exercise(lab, replicas.urls[0], shards)
            }
        }
    }

    static func save(_ client: ServiceClient, _ id: UUID, _ text: String) async throws -> CloudAPI.ModifyResponse {
        try await client.send(
            .POST,
            "/v1/zones/Passwords/modify",
            CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data(text.utf8), expectedTag: nil)]),
            as: CloudAPI.ModifyResponse.self
        )
    }

    static func exercise(_ lab: RunningLab, _ url: String, _ shards: [PostgresInstance]) async throws {
        let world = lab.state.builtWorld
        let alice = ServiceClient(baseURL: url, tls: try TLSIdentities.deviceClient(world: world, device: "phone"))
        let bob = ServiceClient(baseURL: url, tls: try TLSIdentities.deviceClient(world: world, device: "pad"))
        defer {
            for client in [alice, bob] { Task { await client.shutdown() } }
        }
        let (aliceFirst, bobFirst) = (UUID(), UUID())
        #expect(try await save(alice, aliceFirst, "alice's").outcomes[aliceFirst.uuidString]?.status == .saved)
        #expect(try await save(bob, bobFirst, "bob's").outcomes[bobFirst.uuidString]?.status == .saved)

        // Each account's records are on its own shard, read straight from each database.
        let logger = Logger(label: "cloud-shard-tests")
        func records(_ shard: Int, _ account: String) throws -> [UUID] {
            let storage = try PostgresZoneStorage(
                servers: try PostgresLocation(url: shards[shard].url).servers(password: nil),
                logger: logger
            )
            defer { storage.close() }
            return try storage.records(in: ZoneID(account: account, view: "Passwords")).map(\.uuid)
        }
        #expect(try records(0, "alice@example.com") == [aliceFirst] && records(1, "alice@example.com").isEmpty)
        #expect(try records(1, "bob@example.com") == [bobFirst] && records(0, "bob@example.com").isEmpty)

        shards[1].stop(removing: false)
        var refused: ServiceClient.Failure? = nil
        do {
            _ = try await save(bob, UUID(), "while down")
        } catch let failure as ServiceClient.Failure {
            refused = failure
        }
        #expect(refused?.status == 503 && refused?.body.contains("storeUnavailable") == true, "\(String(describing: refused))")
        let aliceDuring = UUID()
        #expect(
            try await save(alice, aliceDuring, "alice's, during").outcomes[aliceDuring.uuidString]?.status == .saved,
            "the other shard carries on"
        )

        try shards[1].start()
        let bobAfter = UUID()
        #expect(try await save(bob, bobAfter, "bob's, after").outcomes[bobAfter.uuidString]?.status == .saved, "back, it takes writes")
        let seen = try await bob.get("/v1/zones/Passwords/changes", as: CloudAPI.ChangesResponse.self)
        #expect(Set(seen.changes.map(\.uuid)) == [bobFirst, bobAfter], "nothing acknowledged was lost")
    }
}
