import Fleet
import Foundation
import Testing

/// How `kclab fleet` splits its devices over worker processes (whole accounts, every device
/// once) and reads its faults.
struct FleetPlanTests {
    @Test func workersGetWholeAccountsAndEveryDeviceOnce() {
        var plan = FleetPlan()
        plan.devices = 10_001
        plan.devicesPerAccount = 4
        let shares = FleetWorkers.shares(plan, workers: 3)
        #expect(shares.count == 3)
        #expect(shares.first?.lowerBound == 0 && shares.last?.upperBound == 10_001)
        #expect(zip(shares, shares.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "no gap, no overlap: \(shares)")
        #expect(shares.dropLast().allSatisfy { $0.upperBound % 4 == 0 }, "an account is never split: \(shares)")
        #expect(FleetWorkers.shares(plan, workers: 1) == [0..<10_001])
        plan.devices = 6
        #expect(FleetWorkers.shares(plan, workers: 4) == [0..<4, 4..<6], "no empty share when workers outnumber accounts")
    }

    @Test func faultsAreReadWithTheirTime() throws {
        #expect(try FleetFault(parsing: "kill-replica@20", seconds: 60) == FleetFault(kind: .killReplica, atSeconds: 20))
        #expect(try FleetFault(parsing: "promote-standby", seconds: 60).atSeconds == 20, "a third of the way in")
        #expect(throws: FleetPlan.Invalid.self) { try FleetFault(parsing: "unplug@5", seconds: 60) }
        #expect(throws: FleetPlan.Invalid.self) { try FleetFault(parsing: "restart-shard@60", seconds: 60) }
        #expect(throws: FleetPlan.Invalid.self) { try FleetFault(parsing: "restart-shard@x", seconds: 60) }
    }

    @Test func aScenarioGivesThePlanAndKeepsTheDefaults() throws {
        let plan = try FleetPlan(
            scenario: """
                devices: 200
                writesPerDeviceMinute: 3
                waitSeconds: 15
                offline: { fraction: 0.1, atSeconds: 20, seconds: 15 }
                faults:
                  - { kind: kill-replica, atSeconds: 30 }
                """
        )
        #expect(plan.devices == 200 && plan.writesPerDeviceMinute == 3 && plan.waitSeconds == 15)
        #expect(plan.devicesPerAccount == FleetPlan().devicesPerAccount && plan.seconds == 60, "what the scenario leaves out keeps its default")
        #expect(plan.offline == FleetPlan.Offline(fraction: 0.1, atSeconds: 20, seconds: 15))
        #expect(plan.faults == [FleetFault(kind: .killReplica, atSeconds: 30)])
        #expect((0..<200).filter { plan.offline?.includes($0) == true }.count == 20, "a tenth of the devices, spread evenly")
        #expect(plan.declineShare == 0 && !(0..<200).contains { plan.declines($0) }, "every user approves by default")
    }

    /// A share of the devices' users decline every prompt: that many, spread over the devices,
    /// so that each worker's share of whole accounts holds its part.
    @Test func aShareOfUsersDecline() throws {
        let plan = try FleetPlan(scenario: "devices: 100\ndeclineShare: 0.25\n")
        let declining = (0..<100).filter { plan.declines($0) }
        #expect(declining.count == 25)
        #expect((0..<50).filter { plan.declines($0) }.count == 12 || (0..<50).filter { plan.declines($0) }.count == 13, "spread: \(declining)")
        var overrides = FleetPlan.Overrides()
        overrides.declineShare = 1
        #expect((0..<10).allSatisfy { (try? FleetPlan(scenario: nil, overrides: overrides))?.declines($0) == true })
    }

    @Test func aScenarioIsRefusedWithItsReason() {
        let cases: [(String, String)] = [
            ("devicez: 10", "'devicez' is not a plan key"),
            ("devices: [1, 2]", "does not read as a plan"),
            ("devices: 0", "devices must be 1 to"),
            ("waitSeconds: 56", "a wait must last 1 to 55 seconds"),
            ("offline: { fraction: 2, atSeconds: 1, seconds: 1 }", "the fraction must be 0 to 1"),
            ("faults: [{ kind: kill-replica, atSeconds: 99 }]", "each within the run's 60 s"),
            ("declineShare: 1.5", "the share of users who decline must be 0 to 1"),
            ("- 1\n- 2", "a scenario is a mapping"),
            (
                "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                    + "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]", "scenario"
            ),
            (String(repeating: "#", count: 70_000), "over 64 KiB"),
        ]
        for (text, reason) in cases {
            do {
                _ = try FleetPlan(scenario: text)
                Issue.record("\(text.prefix(40)) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(text.prefix(40)): \(error.description)")
            }
        }
    }

    /// The SecItem mix: a scenario's kinds (the others none), its unknown kinds refused by name,
    /// and `--calls-per-minute` keeping the proportions.
    @Test func aScenarioGivesTheSecItemMix() throws {
        #expect(FleetPlan().calls == FleetPlan.Calls(add: 1, copy: 6, update: 1, delete: 1), "the default mix")
        let plan = try FleetPlan(scenario: "calls: { copy: 12, add: 3 }\napp: com.example.App\nassociationChecksPerDeviceMinute: 4\n")
        #expect(plan.calls == FleetPlan.Calls(add: 3, copy: 12, update: 0, delete: 0) && plan.app == "com.example.App")
        #expect(plan.associationChecksPerDeviceMinute == 4 && FleetPlan().associationChecksPerDeviceMinute == 1)
        #expect(plan.calls.scaled(toTotal: 30) == FleetPlan.Calls(add: 6, copy: 24, update: 0, delete: 0))
        #expect(plan.calls.scaled(toTotal: 0).total == 0)
        #expect(FleetPlan.Calls(add: 0, copy: 0, update: 0, delete: 0).scaled(toTotal: 18) == FleetPlan.Calls(add: 2, copy: 12, update: 2, delete: 2))
        let unknown = #expect(throws: FleetPlan.Invalid.self) { try FleetPlan(scenario: "calls: { copyy: 1 }") }
        #expect(unknown?.description.contains("'copyy' is not a kind of call") == true, "\(String(describing: unknown))")
        #expect(throws: FleetPlan.Invalid.self) { try FleetPlan(scenario: "calls: { add: -1 }") }
    }

    /// The command line's options on top of a scenario file: each set one replaces the file's,
    /// faults add to its own, and a refusal names the file.
    @Test func optionsOverrideTheScenarioFile() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "scenario-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try "devices: 200\nseconds: 90\ncalls: { copy: 6, add: 2 }\nfaults: [{ kind: kill-replica, atSeconds: 10 }]\n".write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        var overrides = FleetPlan.Overrides()
        overrides.devices = 40
        overrides.callsPerMinute = 16
        overrides.faults = ["restart-shard@30"]
        let plan = try FleetPlan(scenario: file, overrides: overrides)
        #expect(plan.devices == 40 && plan.seconds == 90, "the option replaces, the file's other keys stay")
        #expect(plan.calls == FleetPlan.Calls(add: 4, copy: 12, update: 0, delete: 0))
        #expect(plan.faults.map(\.description) == ["kill-replica@10", "restart-shard@30"])
        overrides.seconds = 20
        let late = #expect(throws: FleetPlan.Invalid.self) { try FleetPlan(scenario: file, overrides: overrides) }
        #expect(late?.description.hasPrefix(file.path) == true, "\(String(describing: late))")
        #expect(try FleetPlan(scenario: nil, overrides: FleetPlan.Overrides()) == FleetPlan())
    }
}
