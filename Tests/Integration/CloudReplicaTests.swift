import CloudAPI
import DeviceProtocol
import Foundation
import LabControl
import NIOHTTP1
import PostgresInstance
import ServiceSupport
import Testing
import WorldTestSupport

/// Two cloudd replicas on one PostgreSQL database (`--store postgres://…`), each its own process:
/// a device waiting on one replica learns of a change another device saved through the other
/// (LISTEN/NOTIFY), and reads it there; the change tags are the database's, so a stale write
/// through either replica loses.
@Suite(.serialized) struct CloudReplicaTests {
    @Test func aChangeThroughOneReplicaWakesADeviceWaitingOnAnother() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let postgres = try PostgresInstance()
            defer { postgres.stop() }
            try await CloudReplicas.with(lab, count: 2, stores: [postgres.url]) { replicas in try await Self.exercise(lab, replicas.urls) }
        }
    }

    /// A replica that heard a change from its feed answers a device's wait from it: the wait
    /// that the other replica's write ends costs this replica no store call, before or after the
    /// wake (the notification carries the zone's number); only the fetches read the store.
    @Test func aWaitIsAnsweredFromWhatTheReplicaHeard() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let postgres = try PostgresInstance()
            defer { postgres.stop() }
            try await CloudReplicas.with(lab, count: 2, stores: [postgres.url], metrics: true) { replicas in
                let world = lab.state.builtWorld
                let phoneOnA = ServiceClient(baseURL: replicas.urls[0], tls: try TLSIdentities.deviceClient(world: world, device: "phone"))
                let macOnB = ServiceClient(baseURL: replicas.urls[1], tls: try TLSIdentities.deviceClient(world: world, device: "mac"))
                defer {
                    for client in [phoneOnA, macOnB] { Task { await client.shutdown() } }
                }
                // Replica B's numbers are trusted once its feed listens.
                try await Self.untilLogged("listening for other replicas' changes", in: replicas.logs[1])
                func storeCalls() throws -> Int {
                    let counter = #"cloud_store_calls_total{shard="0",outcome="ok"} "#
                    let line = try lab.metrics(replicas.endpoints[1]).lines.first { $0.hasPrefix(counter) }
                    return line.flatMap { Int($0.dropFirst(counter.count)) } ?? 0
                }
                _ = try await phoneOnA.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
                let before = try storeCalls()
                let start = try await macOnB.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
                async let woken = macOnB.get(
                    "/v1/zones/Applications/wait?seconds=60&since=\(start.token)",
                    as: CloudAPI.WaitResponse.self,
                    deadline: .seconds(75)
                )
                try await Task.sleep(for: .seconds(3))
                let id = UUID()
                _ = try await phoneOnA.send(
                    .POST,
                    "/v1/zones/Applications/modify",
                    CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed".utf8), expectedTag: nil)]),
                    as: CloudAPI.ModifyResponse.self
                )
                let answer = try await woken
                #expect(answer.changed && answer.token == "1", "\(answer)")
                let seen = try await macOnB.get("/v1/zones/Applications/changes?since=\(start.token)", as: CloudAPI.ChangesResponse.self)
                #expect(seen.changes.map(\.uuid) == [id])
                #expect(try storeCalls() - before == 2, "B read the store for its two fetches, never for the wait")
            }
        }
    }

    /// Waits (up to a minute) until `log` has a line containing `text`.
    static func untilLogged(_ text: String, in log: URL) async throws {
        let began = ContinuousClock.now
        while !((try? String(contentsOf: log, encoding: .utf8))?.contains(text) ?? false) {
            guard ContinuousClock.now - began < .seconds(60) else {
                Issue.record("\(log.lastPathComponent) never said '\(text)'")
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func exercise(_ lab: RunningLab, _ urls: [String]) async throws {
        let world = lab.state.builtWorld
        let phoneOnA = ServiceClient(baseURL: urls[0], tls: try TLSIdentities.deviceClient(world: world, device: "phone"))
        let macOnB = ServiceClient(baseURL: urls[1], tls: try TLSIdentities.deviceClient(world: world, device: "mac"))
        defer {
            for client in [phoneOnA, macOnB] { Task { await client.shutdown() } }
        }
        // Each client's connection, and each replica's connection to PostgreSQL, opened first: on
        // a loaded machine opening them took longer than the wait gave (CI: the write arrived
        // after a 20 s wait had ended).
        let before = try await macOnB.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
        _ = try await phoneOnA.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
        #expect(before.changes.isEmpty)
        // A wait without `since` ends only on a change this replica hears of (or its time): the
        // write goes through the other replica a few seconds after the wait began, and the wait
        // gives it a minute.
        async let woken = macOnB.get("/v1/zones/Applications/wait?seconds=60", as: CloudAPI.WaitResponse.self, deadline: .seconds(75))
        try await Task.sleep(for: .seconds(3))
        let id = UUID()
        let saved = try await phoneOnA.send(
            .POST,
            "/v1/zones/Applications/modify",
            CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v1".utf8), expectedTag: nil)]),
            as: CloudAPI.ModifyResponse.self
        )
        let tag = try #require(saved.outcomes[id.uuidString]?.changeTag)
        let answer = try await woken
        #expect(answer.changed, "the replica heard of the other's write")

        let seen = try await macOnB.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
        #expect(seen.changes.map(\.uuid) == [id] && seen.changes.first?.changeTag == tag)
        #expect(seen.token == answer.token, "one token for the zone, whichever replica gives it")

        // The Mac saves over the tag through B; the iPhone's write with the old tag, through A, loses.
        _ = try await macOnB.send(
            .POST,
            "/v1/zones/Applications/modify",
            CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v2".utf8), expectedTag: tag)]),
            as: CloudAPI.ModifyResponse.self
        )
        let stale = try await phoneOnA.send(
            .POST,
            "/v1/zones/Applications/modify",
            CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v3".utf8), expectedTag: tag)]),
            as: CloudAPI.ModifyResponse.self
        )
        #expect(stale.outcomes[id.uuidString]?.status == .conflict)
    }
}
