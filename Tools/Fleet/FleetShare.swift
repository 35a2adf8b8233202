import Crypto
import Foundation
import KeychainCallChannel
import KeychainSyncClient
import ServiceSupport
import WorldBuilder

/// One process's devices of a fleet (all of them, or a worker's share): each device's identity
/// is minted from the built world's device CA before the run starts, so that every share's
/// devices can start together; then each device runs as two tasks against cloudd.
public final class FleetShare: Sendable {
    let plan: FleetPlan
    let devices: [FleetDevice]
    let stats = FleetStats()
    let residentBefore: Int

    /// Makes devices `range` of `plan` (whole accounts: the range starts and ends on an
    /// account's first device, or at the end) for run `run`, against the `cloudd` replicas.
    public init(
        _ plan: FleetPlan,
        devices range: Range<Int>,
        run: String,
        services: FleetServices,
        progress: @Sendable (String) -> Void
    ) throws {
        try plan.validate()
        let (world, cloudd) = (services.world, services.cloudd)
        guard !cloudd.isEmpty else { throw FleetPlan.Invalid(description: "no cloudd to reach: is the lab up?") }
        let app = try Self.app(plan, services: services)
        guard range.lowerBound >= 0, range.upperBound <= plan.devices, !range.isEmpty,
            range.lowerBound % plan.devicesPerAccount == 0, range.upperBound % plan.devicesPerAccount == 0 || range.upperBound == plan.devices
        else { throw FleetPlan.Invalid(description: "devices \(range) are not whole accounts of the plan's \(plan.devices)") }
        self.plan = plan
        residentBefore = ProcessMemory.resident(getpid())
        let minter = try DeviceIdentityMinter(world: world)
        // One sealing key per account, as the world gives its accounts: cloudd never sees it.
        var keys: [Int: SymmetricKey] = [:]
        progress(
            "minting \(range.count) device identities (fleet-\(run)-N@fleet.keychainlab.test)\(app.map { ", each running \($0.bundleID)" } ?? "")"
        )
        var devices: [FleetDevice] = []
        devices.reserveCapacity(range.count)
        for index in range {
            let account = plan.account(of: index, run: run)
            let identity = try minter.mint(name: "fleet-\(index)", udid: String(format: "00008110-FLEET%011d", index), account: account)
            let tls = try TLSIdentities.deviceClient(world: world, chainPEM: identity.chainPEM, keyPEM: identity.keyPEM)
            // Each device starts at its own replica and moves to the next when that one fails.
            let first = index % cloudd.count
            let client = ServiceClient(baseURLs: Array(cloudd[first...] + cloudd[..<first]), tls: tls)
            let key = keys[index / plan.devicesPerAccount] ?? SymmetricKey(size: .bits256)
            keys[index / plan.devicesPerAccount] = key
            let stats = stats
            let deviceApp = try app.flatMap { app in
                try FleetDeviceApp.make(index: index, account: account, tls: tls, app: app, services: services, plan: plan, stats: stats)
            }
            devices.append(
                FleetDevice(
                    index: index,
                    cloud: CloudClient(client: client, sealer: ItemSealer(key: key)),
                    client: client,
                    app: deviceApp,
                    plan: plan,
                    stats: stats
                )
            )
        }
        self.devices = devices
    }

    /// The app the devices install, when the plan makes SecItem calls, association checks or
    /// web credential calls; refuses a plan whose services are not running.
    private static func app(_ plan: FleetPlan, services: FleetServices) throws(FleetPlan.Invalid) -> FleetApp? {
        let (calls, checks, web) = (plan.calls.total > 0, plan.associationChecksPerDeviceMinute > 0, plan.webCredentialsPerDeviceMinute > 0)
        let none = "or make no calls: --calls-per-minute 0 --checks-per-minute 0 --web-credentials-per-minute 0"
        if calls || checks || web, services.keychaind == nil {
            throw FleetPlan.Invalid(description: "keychaind is not running, so the devices cannot install their app: is the lab up? (\(none))")
        }
        if checks, services.associationd == nil {
            throw FleetPlan.Invalid(description: "associationd is not running, so no association checks can be made (or --checks-per-minute 0)")
        }
        if web, services.webcredentiald == nil {
            throw FleetPlan.Invalid(
                description: "webcredentiald is not running, so no web credential calls can be made (or --web-credentials-per-minute 0)"
            )
        }
        guard calls || checks || web else { return nil }
        do {
            return try FleetApp(world: services.world, bundleID: plan.app)
        } catch {
            throw FleetPlan.Invalid(
                description: "\(error) (\(none))"
            )
        }
    }

    /// Runs the devices from `start` for the plan's time, waits up to the settle time for every
    /// write to arrive everywhere, reads every account back, and gives what was measured;
    /// `progress` hears a line every `every`.
    public func run(from start: ContinuousClock.Instant, every: Duration, progress: @Sendable (String) -> Void) async -> FleetTally {
        let (plan, stats, fleet) = (self.plan, self.stats, self.devices)
        let end = start + .seconds(plan.seconds)
        progress("starting \(fleet.count) devices")
        stats.expectStarts(fleet.reduce(0) { $0 + $1.startSteps })
        await withTaskGroup(of: Void.self) { group in
            for device in fleet {
                group.addTask {
                    try? await Task.sleep(until: start + plan.startOffset(of: device.index))
                    await device.listen(from: start)
                }
            }
            let writers = Task {
                await withTaskGroup(of: Void.self) { writers in
                    for device in fleet {
                        writers.addTask {
                            try? await Task.sleep(until: start + plan.startOffset(of: device.index))
                            await device.write(from: start, until: end)
                        }
                        writers.addTask {
                            try? await Task.sleep(until: start + plan.startOffset(of: device.index))
                            await device.app?.run(until: end)
                        }
                    }
                }
            }
            var last = (ContinuousClock.now, stats.tally)
            while ContinuousClock.now < end || (last.1.pending > 0 && ContinuousClock.now < end + .seconds(plan.settleSeconds)) {
                try? await Task.sleep(for: every)
                let now = ContinuousClock.now
                let tally = stats.tally
                progress(FleetRunner.line(now - start, tally, since: last.1, interval: now - last.0))
                last = (now, tally)
            }
            await writers.value
            group.cancelAll()
        }
        progress("reading back \(Set(fleet.map(\.account)).count) accounts' zones")
        var tally = stats.tally
        tally.audit = await FleetAudit.run(acknowledged: stats.acknowledgedWrites, devices: fleet)
        for device in fleet {
            await device.client.shutdown()
            await device.app?.calls.shutdown()
        }
        tally.devices = fleet.count
        tally.startSeconds = stats.startedAt.map { ($0 - start) / .seconds(1) }
        tally.residentBeforeBytes = residentBefore
        tally.residentAfterBytes = ProcessMemory.resident(getpid())
        return tally
    }
}
