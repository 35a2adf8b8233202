import CloudAPI
import Foundation
import LabControl
import NIOHTTP1
import PostgresInstance
import ServiceSupport
import Testing
import WorldTestSupport

/// A device given several cloudd replicas (`device --cloudd` more than once, or the fleet's
/// devices) moves to the next when one cannot be reached or dies: a write that never reached a
/// replica goes on to the next at once, and a wait broken by a replica's death carries on at
/// another, which a write through a third client then wakes.
@Suite(.serialized) struct CloudFailoverTests {
    @Test func aDeviceMovesToTheNextReplicaWhenOneDies() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let postgres = try PostgresInstance()
            defer { postgres.stop() }
            try await CloudReplicas.with(lab, count: 2, stores: [postgres.url]) { replicas in
                try await Self.exercise(lab, replicas)
            }
        }
    }

    static func exercise(_ lab: RunningLab, _ replicas: CloudReplicas) async throws {
        let world = lab.state.builtWorld
        // Nothing listens on the discard port: the first address refuses every connection.
        let nowhere = "https://127.0.0.1:9"
        let phone = ServiceClient(baseURLs: [nowhere] + replicas.urls, tls: try TLSIdentities.deviceClient(world: world, device: "phone"))
        let mac = ServiceClient(baseURL: replicas.urls[1], tls: try TLSIdentities.deviceClient(world: world, device: "mac"))
        defer {
            for client in [phone, mac] { Task { await client.shutdown() } }
        }
        let first = try await save(UUID(), through: phone)
        #expect(first.outcomes.count == 1, "the write went on to a replica that answered")
        #expect(phone.baseURL == replicas.urls[0], "the phone stays on the first replica that answered")

        // The phone waits through replica 0 for a change past what it has; replica 0 dies. The
        // Mac's connection is opened first, and the wait gives the Mac's write a minute: on a
        // loaded machine a first call can take longer than a short wait.
        let token = try await phone.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self).token
        _ = try await mac.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
        async let woken = phone.get(
            "/v1/zones/Applications/wait?seconds=60&since=\(token)",
            as: CloudAPI.WaitResponse.self,
            deadline: .seconds(75)
        )
        try await Task.sleep(for: .seconds(1))
        kill(replicas.pids[0], SIGKILL)
        try await Task.sleep(for: .seconds(1))
        let id = UUID()
        _ = try await save(id, through: mac)
        let answer = try await woken
        #expect(answer.changed, "the wait carried on at replica 1 and heard the Mac's write")
        #expect(phone.baseURL == replicas.urls[1])
        let seen = try await phone.get("/v1/zones/Applications/changes?since=\(token)", as: CloudAPI.ChangesResponse.self)
        #expect(seen.changes.map(\.uuid) == [id])
    }

    static func save(_ id: UUID, through client: ServiceClient) async throws -> CloudAPI.ModifyResponse {
        try await client.send(
            .POST,
            "/v1/zones/Applications/modify",
            CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed".utf8), expectedTag: nil)]),
            as: CloudAPI.ModifyResponse.self
        )
    }
}
