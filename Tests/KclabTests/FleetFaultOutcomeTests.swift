import Testing

@testable import Fleet

/// A fault the fleet could not cause is marked failed (and `kclab fleet` then fails), a fault it
/// caused says what was done.
@Suite struct FleetFaultOutcomeTests {
    struct NoServer: Error, CustomStringConvertible {
        var description: String { "pg_ctl: could not start server" }
    }

    @Test func aFaultThatCouldNotBeCausedIsMarkedFailed() async {
        let faults = [FleetFault(kind: .killReplica, atSeconds: 0), FleetFault(kind: .restartShard, atSeconds: 0)]
        let outcomes = await FleetRunner.cause(
            faults,
            from: .now,
            inject: { fault in
                guard fault.kind == .killReplica else { throw NoServer() }
                return "cloudd replica 0 killed"
            },
            progress: { _ in }
        ).value
        #expect(outcomes.map(\.failed) == [false, true])
        #expect(outcomes[0].outcome == "cloudd replica 0 killed")
        #expect(outcomes[1].outcome == "failed: pg_ctl: could not start server")
    }
}
