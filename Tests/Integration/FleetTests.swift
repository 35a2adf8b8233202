import Foundation
import LabControl
import Testing
import WorldTestSupport

/// `kclab fleet --shards 2 --replicas 2`: a hundred light devices, each with an identity of its
/// own, spread over two cloudd replicas the fleet starts over two PostgreSQL shards of its own, so
/// an account's devices sit on both replicas and each write reaches the others through
/// LISTEN/NOTIFY. Every write converges, to each other device of its account, nothing fails, and
/// the fleet's cloud is gone afterwards.
@Suite(.serialized) struct FleetTests {
    @Test func aHundredDevicesConvergeThroughTwoReplicasOverTwoShards() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let report = lab.state.root.appending(path: "fleet.json")
            let run = try lab.kclab([
                "fleet", "--devices", "100", "--per-account", "4", "--seconds", "8", "--settle", "30", "--ramp", "2", "--writes-per-minute", "12",
                "--shards", "2", "--replicas", "2", "--json", report.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("fleet: 100 devices over 25 accounts"), "\(run.stdout)")
            #expect(run.stderr.contains("starting cloudd replica 1 over 2 shards"), "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let operations = try #require(json["operations"] as? [String: [String: Any]])
            let uploads = try #require(operations["upload"]?["count"] as? Int)
            let convergence = try #require(json["convergence"] as? [String: Any])
            let converged = try #require(convergence["converged"] as? Int)
            let arrivals = try #require((convergence["arrivals"] as? [String: Any])?["count"] as? Int)
            #expect(uploads > 20, "about 100 × 12 / 60 × 8 = 160 writes: \(uploads)")
            #expect((json["errors"] as? [String: Int])?.isEmpty == true, "\(json["errors"] ?? "")")
            #expect(converged == uploads && convergence["pending"] as? Int == 0, "every write reached every device of its account")
            #expect(arrivals == 3 * converged, "each write arrives at its account's three other devices, once each")
            let memory = try #require(json["memory"] as? [String: Int])
            #expect((memory["residentAfterBytes"] ?? 0) > 0)

            let left = LabRecord.read(lab.state)?.processes.filter { $0.name.hasPrefix("cloudd-replica-") || $0.name.hasPrefix("postgres-shard-") }
            #expect(left?.isEmpty == true, "the fleet's cloud left the lab's record: \(String(describing: left))")
        }
    }
}
