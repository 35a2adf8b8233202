import CloudAPI
import DeviceProtocol
import Foundation
import LabControl
import LabErrors
import NIOHTTP1
import ServiceSupport
import Testing
import WorldTestSupport

/// cloudd through real processes and mutual TLS: each device reaches its own account's zones
/// only, a stale change tag is refused with the server's record, a token that was never given
/// asks for everything, and a waiting device learns of a change as it happens.
@Suite(.serialized) struct CloudServiceTests {
    static let world = """
        name: cloud
        teams: [{id: ABCDE12345, name: Example Inc.}]
        apps:
          - {bundleID: com.example.App, team: ABCDE12345, program: keychainlab-app}
        devices:
          - {id: phone, osVersion: "17.4", iCloudAccount: alice@example.com, apps: [com.example.App]}
          - {id: mac, platform: macos, osVersion: "14.5", iCloudAccount: alice@example.com, apps: [com.example.App]}
          - {id: pad, osVersion: "17.4", iCloudAccount: bob@example.com, apps: [com.example.App]}
          - {id: watch, osVersion: "17.4", apps: [com.example.App]}
        """

    /// A client of cloudd with `device`'s certificate.
    static func client(_ lab: RunningLab, _ device: String) throws -> ServiceClient {
        let url = try #require(SiteRecord.endpointURL(lab.state.clouddEndpoint), "cloudd wrote no endpoint")
        return ServiceClient(baseURL: url, tls: try TLSIdentities.deviceClient(world: lab.state.builtWorld, device: device))
    }

    static func failure(_ body: () async throws -> Void) async -> ServiceClient.Failure? {
        do {
            try await body()
            return nil
        } catch let failure as ServiceClient.Failure {
            return failure
        } catch {
            return nil
        }
    }

    @Test func devicesShareTheirAccountsZonesOnly() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let (phone, mac, pad, watch) = (
                try Self.client(lab, "phone"), try Self.client(lab, "mac"), try Self.client(lab, "pad"), try Self.client(lab, "watch")
            )
            defer {
                for client in [phone, mac, pad, watch] { Task { await client.shutdown() } }
            }
            let id = UUID()
            let saved = try await phone.send(
                .POST,
                "/v1/zones/Applications/modify",
                CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v1".utf8), expectedTag: nil)]),
                as: CloudAPI.ModifyResponse.self
            )
            let outcome = try #require(saved.outcomes[id.uuidString])
            #expect(outcome.status == .saved && outcome.changeTag != nil)

            let seen = try await mac.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
            #expect(seen.changes.map(\.uuid) == [id] && seen.changes.first?.payload == Data("sealed v1".utf8))
            let stranger = try await pad.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
            #expect(stranger.changes.isEmpty, "bob's devices see none of alice's records")

            // The Mac saves over the tag it saw; the iPhone's write with the old tag loses.
            _ = try await mac.send(
                .POST,
                "/v1/zones/Applications/modify",
                CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v2".utf8), expectedTag: outcome.changeTag)]),
                as: CloudAPI.ModifyResponse.self
            )
            let stale = try await phone.send(
                .POST,
                "/v1/zones/Applications/modify",
                CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: id, payload: Data("sealed v3".utf8), expectedTag: outcome.changeTag)]),
                as: CloudAPI.ModifyResponse.self
            )
            #expect(stale.outcomes[id.uuidString]?.status == .conflict)
            #expect(stale.outcomes[id.uuidString]?.server?.payload == Data("sealed v2".utf8), "the server's record comes back")

            // The operator sees alice's zone as cloudd holds it: UUIDs, tags and sizes, never a payload.
            let listed = try lab.kclab(["cloud", "list", "--account", "alice@example.com", "--view", "Applications"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("alice@example.com/Applications: token 2, 1 record"), "\(listed.stdout)")
            #expect(listed.stdout.contains("\(id.uuidString)  tag ") && !listed.stdout.contains("sealed"), "\(listed.stdout)")
            let byZone = try lab.kclab(["cloud", "list", "--account", "alice@example.com", "--zone", "Passwords"])
            #expect(byZone.stdout.contains("alice@example.com/Passwords: token") && !byZone.stdout.contains("Applications"), "\(byZone.stdout)")
            let bobs = try lab.kclab(["cloud", "list", "--account", "bob@example.com", "--json"])
            let zones = try #require(try JSONSerialization.jsonObject(with: Data(bobs.stdout.utf8)) as? [[String: Any]], "\(bobs.stderr)")
            #expect(zones.count == 4 && zones.allSatisfy { ($0["records"] as? [Any])?.isEmpty == true })
            let asDevice = await Self.failure {
                _ = try await phone.get("/v1/admin/zones?account=alice@example.com", as: [CloudAPI.ZoneListing].self)
            }
            #expect(asDevice?.status == 403 && asDevice?.body.contains("notAnAdministrator") == true)
            let erasedByDevice = await Self.failure {
                _ = try await phone.send(
                    .POST,
                    "/v1/admin/zones/erase",
                    CloudAPI.EraseRequest(accounts: ["alice@example.com"]),
                    as: [CloudAPI.ZoneErasure].self
                )
            }
            #expect(erasedByDevice?.status == 403 && erasedByDevice?.body.contains("notAnAdministrator") == true, "only the operator erases")

            let unsigned = await Self.failure { _ = try await watch.get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self) }
            #expect(unsigned?.status == 403 && unsigned?.body.contains("notSignedIn") == true, "\(String(describing: unsigned))")
            let unknown = await Self.failure { _ = try await phone.get("/v1/zones/Photos/changes", as: CloudAPI.ChangesResponse.self) }
            #expect(unknown?.status == 404)
            let expired = await Self.failure {
                _ = try await phone.get("/v1/zones/Applications/changes?since=999", as: CloudAPI.ChangesResponse.self)
            }
            #expect(expired?.status == 410 && expired?.body.contains("tokenExpired") == true)

            // Each decision is in cloudd's audit log (written every 200 ms): who, which account's
            // zone, what was decided; never a record's payload.
            let auditFile = lab.state.cloudd.appending(path: "audit.jsonl")
            var audit = ""
            for _ in 0..<50 where !audit.contains("tokenExpired") {
                try await Task.sleep(for: .milliseconds(100))
                audit = (try? String(contentsOf: auditFile, encoding: .utf8)) ?? ""
            }
            let lines = audit.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(lines.count == audit.split(separator: "\n").count, "every line is a JSON object")
            func has(_ operation: String, _ outcome: String, _ status: Int, account: String?) -> Bool {
                lines.contains {
                    $0["operation"] as? String == operation && $0["outcome"] as? String == outcome && $0["status"] as? Int == status
                        && $0["account"] as? String == account && ($0["device"] as? String)?.isEmpty == false
                }
            }
            #expect(has("modify", "saved 1", 200, account: "alice@example.com"), "\(audit)")
            #expect(has("modify", "conflict 1", 200, account: "alice@example.com"), "\(audit)")
            #expect(has("changes", "1 change", 200, account: "alice@example.com"), "\(audit)")
            #expect(has("changes", "notSignedIn", 403, account: nil), "\(audit)")
            #expect(has("changes", "unknownView", 404, account: "alice@example.com"), "\(audit)")
            #expect(has("changes", "tokenExpired", 410, account: "alice@example.com"), "\(audit)")
            #expect(!audit.contains("sealed"), "no payload in the audit log")
        }
    }

    @Test func aWaitingDeviceLearnsOfAChangeAsItHappens() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let (phone, mac) = (try Self.client(lab, "phone"), try Self.client(lab, "mac"))
            defer {
                for client in [phone, mac] { Task { await client.shutdown() } }
            }
            let start = try await mac.get("/v1/zones/Passwords/changes", as: CloudAPI.ChangesResponse.self)
            let quiet = try await mac.get("/v1/zones/Passwords/wait?since=\(start.token)&seconds=1", as: CloudAPI.WaitResponse.self)
            #expect(!quiet.changed && quiet.token == start.token)
            // The longest wait cloudd allows: on a loaded machine the phone's write below can take
            // tens of seconds, and the wait must still be open when it lands.
            async let woken = mac.get(
                "/v1/zones/Passwords/wait?since=\(start.token)&seconds=60",
                as: CloudAPI.WaitResponse.self,
                deadline: .seconds(70)
            )
            try await Task.sleep(for: .milliseconds(300))
            _ = try await phone.send(
                .POST,
                "/v1/zones/Passwords/modify",
                CloudAPI.ModifyRequest(writes: [CloudAPI.Write(uuid: UUID(), payload: Data("p".utf8), expectedTag: nil)]),
                as: CloudAPI.ModifyResponse.self
            )
            let answer = try await woken
            #expect(answer.changed && answer.token != start.token)
            // The zone is on disk: a restarted cloudd still has the change.
            _ = try await Lab.restart("cloudd", state: lab.state)
            let after = try await mac.get("/v1/zones/Passwords/changes", as: CloudAPI.ChangesResponse.self)
            #expect(after.changes.count == 1)
        }
    }
}
