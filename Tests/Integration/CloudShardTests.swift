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
import Synchronization
import Testing
import WorldTestSupport

/// cloudd over two PostgreSQL shards (`--store` twice): alice's account lives on shard 0, bob's on
/// shard 1 (FNV-1a of the account). With bob's shard stopped, bob's devices get 503
/// `storeUnavailable`, which they retry, while alice's carry on; started again, bob's shard has
/// everything it acknowledged, and takes writes again. cloudd's metrics count each shard's store
/// calls apart.
@Suite(.serialized) struct CloudShardTests {
    @Test func aShardThatIsDownCostsOnlyItsOwnAccounts() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let shards = [try PostgresInstance(), try PostgresInstance()]
            defer { for shard in shards { shard.stop() } }
            try await CloudReplicas.with(lab, count: 1, stores: shards.map(\.url), metrics: true) { replicas in
                try await Self.exercise(lab, replicas.urls[0], shards)
                // The operator's view: each shard's store calls under its own label.
                let lines = try lab.metrics(replicas.endpoints[0]).lines
                #expect(lines.contains(#"cloud_store_calls_total{shard="1",outcome="unavailable"} 1"#), "bob's write while down: \(lines)")
                #expect(lines.contains(#"cloud_store_calls_total{shard="0",outcome="unavailable"} 0"#), "alice's shard carried on: \(lines)")
                #expect(lines.contains(#"cloud_store_calls_total{shard="0",outcome="ok"} 2"#), "alice's two writes: \(lines)")
                #expect(lines.contains(#"cloud_store_calls_total{shard="1",outcome="ok"} 3"#), "bob's two writes and his fetch: \(lines)")
                #expect(lines.contains { $0.hasPrefix(#"cloud_store_wait_duration_seconds_count{shard="1"}"#) }, "\(lines)")
            }
        }
    }

    /// bob's shard frozen (SIGSTOP: it neither answers nor refuses) while 32 of bob's writes
    /// wait on it, more than cloudd has threads for one shard: alice's write is still answered
    /// while every one of bob's waits, since each shard's calls run on threads of their own.
    /// Thawed, bob's writes end saved or refused as retryable, and none acknowledged is lost.
    @Test func aShardThatHangsHoldsOnlyItsOwnAccountsCalls() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let shards = [try PostgresInstance(), try PostgresInstance()]
            defer { for shard in shards { shard.stop() } }
            // Three connections a store (`?connections=3`), so three threads a shard.
            try await CloudReplicas.with(lab, count: 1, stores: shards.map { $0.url + "?connections=3" }) { replicas in
                try await Self.hang(lab, replicas.urls[0], shards)
            }
        }
    }

    static func hang(_ lab: RunningLab, _ url: String, _ shards: [PostgresInstance]) async throws {
        let world = lab.state.builtWorld
        let alice = ServiceClient(baseURL: url, tls: try TLSIdentities.deviceClient(world: world, device: "phone"))
        // Four clients of bob's, each with up to 8 connections at once (AsyncHTTPClient's limit).
        let bobs = try (0..<4).map { _ in ServiceClient(baseURL: url, tls: try TLSIdentities.deviceClient(world: world, device: "pad")) }
        defer {
            for client in [alice] + bobs { Task { await client.shutdown() } }
        }
        let first = UUID()
        #expect(try await save(bobs[0], first, "bob's").outcomes[first.uuidString]?.status == .saved)
        // alice's connection, and cloudd's to her shard, opened before the freeze: her write
        // during it must not spend bob's calls' 10 s limit on a loaded machine opening them.
        _ = try await alice.get("/v1/zones/Passwords/changes", as: CloudAPI.ChangesResponse.self)

        try shards[1].pause()
        defer { shards[1].resume() }
        let answered = Answered()
        let writes = (0..<32).map { index in
            Task { () -> (UUID, Int) in
                let id = UUID()
                defer { answered.add() }
                do {
                    return (id, try await save(bobs[index % bobs.count], id, "bob's \(index)").outcomes[id.uuidString]?.status == .saved ? 200 : 0)
                } catch {
                    // A retryable refusal is a 503 `storeUnavailable`; anything else, -1.
                    guard let failure = error as? ServiceClient.Failure, failure.body.contains("storeUnavailable") else { return (id, -1) }
                    return (id, failure.status)
                }
            }
        }
        // Every connection cloudd may open to bob's shard is open (its three, and its feed's):
        // each of the shard's threads has a call that waits.
        let opened = ContinuousClock.now
        while connections(toPort: shards[1].port) < 4 {
            guard ContinuousClock.now - opened < .seconds(60) else {
                Issue.record("cloudd never opened its connections to the frozen shard: \(connections(toPort: shards[1].port)) of 4")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let aliceDuring = UUID()
        let saved = try await save(alice, aliceDuring, "alice's, while bob's shard hangs")
        let bobAnswered = answered.count
        let open = connections(toPort: shards[1].port)
        shards[1].resume()
        #expect(open == 4, "the store's three connections and the feed's, no more, with 32 calls waiting: \(open)")
        #expect(saved.outcomes[aliceDuring.uuidString]?.status == .saved)
        #expect(bobAnswered == 0, "alice's write waited for \(bobAnswered) of bob's to end: the shards share threads")

        var acknowledged: Set<UUID> = [first]
        for write in writes {
            let (id, status) = await write.value
            #expect(status == 200 || status == 503, "bob's write ended \(status): saved, or refused as retryable")
            if status == 200 { acknowledged.insert(id) }
        }
        let seen = try await bobs[0].get("/v1/zones/Passwords/changes", as: CloudAPI.ChangesResponse.self)
        #expect(acknowledged.isSubset(of: Set(seen.changes.map(\.uuid))), "nothing acknowledged was lost")
    }

    /// The established TCP connections to a loopback `port` (`/proc/net/tcp`: remote address
    /// 127.0.0.1 and the port, state 01).
    static func connections(toPort port: Int) -> Int {
        // Read to the end: a file of /proc says it is empty, and Foundation's String(contentsOfFile:)
        // gets only its first page.
        let table = String(decoding: (try? FileHandle(forReadingAtPath: "/proc/net/tcp")?.readToEnd()) ?? Data(), as: UTF8.self)
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "01"
        }.count
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

/// How many of a test's calls have ended, counted from their tasks.
private final class Answered: Sendable {
    private let ended = Atomic<Int>(0)

    func add() { ended.add(1, ordering: .relaxed) }

    var count: Int { ended.load(ordering: .relaxed) }
}
