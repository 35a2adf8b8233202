import Foundation
import LabControl
import Testing
import WorldTestSupport

/// `kclab fleet --shards 2 --replicas 2 --workers 2`: a hundred light devices in two worker
/// processes, each device with an identity of its own, spread over two cloudd replicas the fleet
/// starts over two PostgreSQL shards of its own, so an account's devices sit on both replicas and
/// each write reaches the others through LISTEN/NOTIFY. Every write converges, to each other
/// device of its account, nothing fails, and the fleet's cloud is gone afterwards.
@Suite(.serialized) struct FleetTests {
    /// cloudd's test world, an app under a distribution profile, which provisions every device
    /// (the fleet's minted devices are on no development profile's list), and a site that names
    /// it for web credentials.
    static let world =
        CloudServiceTests.world.replacingOccurrences(
            of: "\ndevices:",
            with: """

                  - bundleID: com.example.FleetApp
                    team: ABCDE12345
                    program: keychainlab-app
                    profile: distribution
                    entitlements: {com.apple.developer.associated-domains: [webcredentials:example.com]}
                devices:
                """
        ) + """

            websites:
              - domain: example.com
                aasa: {content: {webcredentials: {apps: [ABCDE12345.com.example.FleetApp]}}}
            """

    @Test func aHundredDevicesConvergeThroughTwoReplicasOverTwoShards() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let report = lab.state.root.appending(path: "fleet.json")
            let run = try lab.kclab([
                "fleet", "--devices", "100", "--per-account", "4", "--seconds", "15", "--settle", "30", "--ramp", "2", "--writes-per-minute", "12",
                "--calls-per-minute", "60", "--checks-per-minute", "20", "--web-credentials-per-minute", "30", "--decline-share", "0.5",
                "--shards", "2", "--replicas", "2", "--connections", "3", "--workers", "2", "--json", report.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("fleet: 100 devices over 25 accounts"), "\(run.stdout)")
            #expect(run.stderr.contains("starting cloudd replica 1 over 2 shards, 3 connections to each"), "\(run.stderr)")
            #expect(run.stderr.contains("worker 0-52: minting 52 device identities"), "two workers, each of whole accounts: \(run.stderr)")
            #expect(run.stderr.contains("worker 52-100: starting 48 devices"), "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let operations = try #require(json["operations"] as? [String: [String: Any]])
            let uploads = try #require(operations["upload"]?["count"] as? Int)
            let convergence = try #require(json["convergence"] as? [String: Any])
            let converged = try #require(convergence["converged"] as? Int)
            let arrivals = try #require((convergence["arrivals"] as? [String: Any])?["count"] as? Int)
            #expect(uploads > 20, "about 100 × 12 / 60 × 15 = 300 writes: \(uploads)")
            #expect((json["errors"] as? [String: Int])?.isEmpty == true, "\(json["errors"] ?? "")")
            #expect(converged == uploads && convergence["pending"] as? Int == 0, "every write reached every device of its account")
            #expect(arrivals == 3 * converged, "each write arrives at its account's three other devices, once each")
            // Every device set up (below), so the start ended, within the run, and the arrivals
            // measured after it are some of all the arrivals.
            let started = try #require(convergence["startSeconds"] as? Double, "\(convergence)")
            #expect(started > 0 && started <= (json["elapsedSeconds"] as? Double ?? 0), "\(convergence)")
            let afterStart = (convergence["afterStart"] as? [String: Any])?["count"] as? Int ?? 0
            #expect(afterStart <= arrivals, "\(convergence)")
            let audit = try #require(json["audit"] as? [String: Int])
            #expect(audit["acknowledged"] == uploads && audit["lost"] == 0, "every acknowledged write was read back: \(audit)")
            let memory = try #require(json["memory"] as? [String: Int])
            #expect((memory["residentAfterBytes"] ?? 0) > 0)
            #expect((memory["cloudPeakBytes"] ?? 0) > 10 << 20, "two replicas and two PostgreSQL servers, measured: \(memory)")

            // Every device reported, registered the distribution app (keychaind verified its
            // signature for each) and made SecItem calls on the call channel; each answer is
            // counted by its OSStatus.
            #expect(operations["keychain setup"]?["count"] as? Int == 100, "\(operations.keys.sorted())")
            let statuses = try #require(json["statuses"] as? [String: [String: Int]])
            for function in ["SecItemAdd", "SecItemCopyMatching", "SecItemUpdate", "SecItemDelete"] {
                let answered = statuses[function]?.values.reduce(0, +) ?? 0
                #expect(answered > 0 && answered == operations[function]?["count"] as? Int, "\(function): \(statuses)")
            }
            // Each installed the app with associationd, which found it in example.com's file.
            #expect(operations["association setup"]?["count"] as? Int == 100, "\(operations.keys.sorted())")
            let checks = try #require(operations["association check"]?["count"] as? Int)
            #expect(checks > 0 && statuses["association check"] == ["associated": checks], "\(statuses)")
            // Each saved and asked for example.com's passwords through webcredentiald; half the
            // users approved each prompt (saving a new account, and the iOS 17 password sheet),
            // half chose Not Now, which iOS reports as no error (nothing saved, an empty array).
            let saves = statuses["SecAddSharedWebCredential"] ?? [:]
            let requests = statuses["SecRequestSharedWebCredential"] ?? [:]
            #expect(saves["errSecSuccess"] ?? 0 > 0 && saves.keys.allSatisfy { $0 == "errSecSuccess" }, "\(saves)")
            #expect(requests["errSecSuccess"] ?? 0 > 0 && Set(requests.keys).isSubset(of: ["errSecSuccess", "errSecItemNotFound"]), "\(requests)")
            #expect(statuses["prompt"]?["add"] ?? 0 > 0 && statuses["prompt"]?["password-request"] ?? 0 > 0, "\(statuses["prompt"] ?? [:])")
            let answers = statuses["prompt answer"] ?? [:]
            #expect(answers["approve"] ?? 0 > 0 && answers["decline"] ?? 0 > 0 && Set(answers.keys) == ["approve", "decline"], "\(answers)")
            #expect(answers.values.reduce(0, +) == statuses["prompt"]?.values.reduce(0, +), "one answer a prompt: \(answers)")
            let copies = statuses["SecItemCopyMatching"] ?? [:]
            #expect(Set(copies.keys).isSubset(of: ["errSecSuccess", "errSecItemNotFound"]) && copies["errSecSuccess"] != nil, "\(copies)")
            #expect(Set((statuses["SecItemAdd"] ?? [:]).keys).isSubset(of: ["errSecSuccess", "errSecDuplicateItem"]), "\(statuses)")

            let left = LabRecord.read(lab.state)?.processes.filter { $0.name.hasPrefix("cloudd-replica-") || $0.name.hasPrefix("postgres-shard-") }
            #expect(left?.isEmpty == true, "the fleet's cloud left the lab's record: \(String(describing: left))")

            // An app under a development profile lists its devices, and no fleet device is on it.
            let refused = try lab.kclab(["fleet", "--devices", "4", "--seconds", "1", "--app", "com.example.App"])
            #expect(refused.status != 0 && refused.stderr.contains("com.example.App's profile is a development profile"), "\(refused.stderr)")
            let none = try lab.kclab(["fleet", "--devices", "4", "--seconds", "1", "--shards", "1", "--connections", "0"])
            #expect(none.status != 0 && none.stderr.contains("--connections must be 1 to 64"), "\(none.stderr)")
        }
    }

    /// The fault runs in small: a replica killed with SIGKILL while the devices write and wait
    /// (they move to the other), a shard crashed and started again (its accounts get retryable
    /// errors for a while), the same shard frozen past cloudd's round-trip limit, then that
    /// shard's primary lost and its synchronous standby promoted.
    /// Nothing cloudd acknowledged is lost, and every acknowledged write reaches every other
    /// device of its account.
    @Test func aFleetLosesNothingWhenAReplicaDiesAndAShardRestarts() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let report = lab.state.root.appending(path: "faults.json")
            let run = try lab.kclab([
                "fleet", "--devices", "60", "--per-account", "3", "--seconds", "30", "--settle", "40", "--ramp", "2", "--writes-per-minute", "30",
                "--shards", "2", "--replicas", "2", "--fault", "kill-replica@5", "--fault", "restart-shard@8", "--fault", "pause-shard@14",
                "--fault", "promote-standby@22",
                "--json", report.path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("fault kill-replica@5: cloudd replica 0 (pid"), "\(run.stdout)")
            #expect(run.stdout.contains("fault restart-shard@8: PostgreSQL shard 0 crashed"), "\(run.stdout)")
            #expect(run.stdout.contains("fault pause-shard@14: PostgreSQL shard 0 frozen (SIGSTOP) and thawed"), "\(run.stdout)")
            #expect(run.stdout.contains("fault promote-standby@22: shard 0's primary crashed; its standby was promoted"), "\(run.stdout)")
            #expect(run.stderr.contains("starting shard 1's synchronous standby"), "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let audit = try #require(json["audit"] as? [String: Int])
            let acknowledged = try #require(audit["acknowledged"])
            #expect(acknowledged > 100, "about 60 × 30 / 60 × 30 = 900 writes, less those refused while a shard was down: \(audit)")
            #expect(audit["lost"] == 0 && audit["unreadableAccounts"] == 0, "\(audit)\n\(run.stdout)\n\(run.stderr.suffix(3000))")
            let convergence = try #require(json["convergence"] as? [String: Any])
            #expect(convergence["pending"] as? Int == 0, "every acknowledged write reached every device of its account")
            #expect((convergence["converged"] as? Int ?? 0) >= acknowledged)
            let errors = try #require(json["errors"] as? [String: Int])
            #expect(errors.keys.allSatisfy { $0.hasPrefix("upload") || $0.hasPrefix("wait") || $0.hasPrefix("fetch") }, "\(errors)")
        }
    }

    /// A scenario file with a quarter of the devices offline for 4 s: they keep their writes and
    /// upload them once back, and catch up from their change tokens; every write still reaches
    /// every device of its account, and nothing acknowledged is lost.
    @Test func devicesThatGoOfflineCatchUp() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let scenario = lab.state.root.appending(path: "offline.yaml")
            try """
            devices: 40
            seconds: 12
            rampSeconds: 1
            writesPerDeviceMinute: 30
            offline: { fraction: 0.25, atSeconds: 3, seconds: 4 }
            """.write(to: scenario, atomically: true, encoding: .utf8)
            let report = lab.state.root.appending(path: "offline.json")
            let run = try lab.kclab(["fleet", "--scenario", scenario.path, "--settle", "30", "--json", report.path])
            #expect(run.status == 0, "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            let operations = try #require(json["operations"] as? [String: [String: Any]])
            #expect(operations["catch-up"]?["count"] as? Int == 10, "each of the 10 offline devices caught up once: \(operations.keys)")
            let convergence = try #require(json["convergence"] as? [String: Any])
            let audit = try #require(json["audit"] as? [String: Int])
            #expect(convergence["pending"] as? Int == 0 && audit["lost"] == 0 && (audit["acknowledged"] ?? 0) > 50, "\(audit) \(convergence)")
            #expect((json["errors"] as? [String: Int])?.isEmpty == true, "\(json["errors"] ?? "")")
        }
    }
}
