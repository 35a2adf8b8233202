import Foundation
import LabControl
import PostgresInstance
import Testing
import WorldTestSupport

/// `kclab fleet`: a hundred light devices, each with an identity of its own, spread over two
/// cloudd replicas on one PostgreSQL database, so an account's devices sit on both replicas and
/// each write reaches the others through LISTEN/NOTIFY. Every write converges, to each other
/// device of its account, and nothing fails.
@Suite(.serialized) struct FleetTests {
    @Test func aHundredDevicesConvergeThroughTwoReplicas() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let postgres = try PostgresInstance()
            defer { postgres.stop() }
            try await CloudReplicas.with(lab, count: 2, stores: [postgres.url]) { replicas in
                let report = lab.state.root.appending(path: "fleet.json")
                let run = try lab.kclab([
                    "fleet", "--devices", "100", "--per-account", "4", "--seconds", "8", "--settle", "30", "--writes-per-minute", "12",
                    "--cloudd", replicas.urls[0], "--replica", replicas.urls[1], "--json", report.path,
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stdout.contains("fleet: 100 devices over 25 accounts"), "\(run.stdout)")
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
            }
        }
    }
}
