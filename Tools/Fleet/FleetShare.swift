import Crypto
public import Foundation
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
        world: URL,
        cloudd: [String],
        progress: @Sendable (String) -> Void
    ) throws {
        try plan.validate()
        guard !cloudd.isEmpty else { throw FleetPlan.Invalid(description: "no cloudd to reach: is the lab up?") }
        guard range.lowerBound >= 0, range.upperBound <= plan.devices, !range.isEmpty,
            range.lowerBound % plan.devicesPerAccount == 0, range.upperBound % plan.devicesPerAccount == 0 || range.upperBound == plan.devices
        else { throw FleetPlan.Invalid(description: "devices \(range) are not whole accounts of the plan's \(plan.devices)") }
        self.plan = plan
        residentBefore = ProcessMemory.resident(getpid())
        let minter = try DeviceIdentityMinter(world: world)
        // One sealing key per account, as the world gives its accounts: cloudd never sees it.
        var keys: [Int: SymmetricKey] = [:]
        progress("minting \(range.count) device identities (fleet-\(run)-N@fleet.keychainlab.test)")
        var devices: [FleetDevice] = []
        devices.reserveCapacity(range.count)
        for index in range {
            let identity = try minter.mint(
                name: "fleet-\(index)",
                udid: String(format: "00008110-FLEET%011d", index),
                account: plan.account(of: index, run: run)
            )
            let tls = try TLSIdentities.deviceClient(world: world, chainPEM: identity.chainPEM, keyPEM: identity.keyPEM)
            // Each device starts at its own replica and moves to the next when that one fails.
            let first = index % cloudd.count
            let client = ServiceClient(baseURLs: Array(cloudd[first...] + cloudd[..<first]), tls: tls)
            let account = index / plan.devicesPerAccount
            let key = keys[account] ?? SymmetricKey(size: .bits256)
            keys[account] = key
            devices.append(
                FleetDevice(index: index, cloud: CloudClient(client: client, sealer: ItemSealer(key: key)), client: client, plan: plan, stats: stats)
            )
        }
        self.devices = devices
    }

    /// Runs the devices from `start` for the plan's time, waits up to the settle time for every
    /// write to arrive everywhere, reads every account back, and gives what was measured;
    /// `progress` hears a line every `every`.
    public func run(from start: ContinuousClock.Instant, every: Duration, progress: @Sendable (String) -> Void) async -> FleetTally {
        let (plan, stats, fleet) = (self.plan, self.stats, self.devices)
        let end = start + .seconds(plan.seconds)
        progress("starting \(fleet.count) devices")
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
                    }
                }
            }
            var last = (ContinuousClock.now, stats.tally)
            while ContinuousClock.now < end || (stats.pending > 0 && ContinuousClock.now < end + .seconds(plan.settleSeconds)) {
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
        for device in fleet { await device.client.shutdown() }
        tally.devices = fleet.count
        tally.residentBeforeBytes = residentBefore
        tally.residentAfterBytes = ProcessMemory.resident(getpid())
        return tally
    }
}
