import Fleet
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
}
