import Crypto
public import Foundation
import KeychainSyncClient
import ServiceSupport
import WorldBuilder

/// Runs a fleet: mints each device's identity from the built world's device CA, starts every
/// device as two tasks against cloudd (several cloudd URLs: devices spread over them in turn),
/// lets them write and listen for the plan's time, waits for the writes to settle, and reports.
public enum FleetRunner {
    /// Runs `plan` against `cloudd`; `progress` hears a line every `every` while it runs.
    public static func run(
        _ plan: FleetPlan,
        world: URL,
        cloudd: [String],
        every: Duration = .seconds(5),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> FleetReport {
        try plan.validate()
        guard !cloudd.isEmpty else { throw FleetPlan.Invalid(description: "no cloudd to reach: is the lab up?") }
        let residentBefore = ResidentMemory.bytes()
        let minter = try DeviceIdentityMinter(world: world)
        let stats = FleetStats()
        // One sealing key per account, as the world gives its accounts: cloudd never sees it.
        let keys = (0..<plan.accounts).map { _ in SymmetricKey(size: .bits256) }
        let run = String(UUID().uuidString.prefix(8)).lowercased()
        progress("minting \(plan.devices) device identities over \(plan.accounts) accounts (fleet-\(run)-N@fleet.keychainlab.test)")
        var devices: [FleetDevice] = []
        devices.reserveCapacity(plan.devices)
        for index in 0..<plan.devices {
            let identity = try minter.mint(
                name: "fleet-\(index)",
                udid: String(format: "00008110-FLEET%011d", index),
                account: plan.account(of: index, run: run)
            )
            let tls = try TLSIdentities.deviceClient(world: world, chainPEM: identity.chainPEM, keyPEM: identity.keyPEM)
            let client = ServiceClient(baseURL: cloudd[index % cloudd.count], tls: tls)
            let sealer = ItemSealer(key: keys[index / plan.devicesPerAccount])
            devices.append(FleetDevice(index: index, cloud: CloudClient(client: client, sealer: sealer), client: client, plan: plan, stats: stats))
        }
        progress("starting \(plan.devices) devices against \(cloudd.count) cloudd")
        let fleet = devices
        let start = ContinuousClock.now
        let end = start + .seconds(plan.seconds)
        await withTaskGroup(of: Void.self) { group in
            for device in fleet {
                group.addTask {
                    try? await Task.sleep(until: start + plan.startOffset(of: device.index))
                    await device.listen()
                }
            }
            let writers = Task {
                await withTaskGroup(of: Void.self) { writers in
                    for device in fleet {
                        writers.addTask {
                            try? await Task.sleep(until: start + plan.startOffset(of: device.index))
                            await device.write(until: end)
                        }
                    }
                }
            }
            var last = (ContinuousClock.now, stats.summary(elapsed: .zero))
            while ContinuousClock.now < end || (stats.pending > 0 && ContinuousClock.now < end + .seconds(plan.settleSeconds)) {
                try? await Task.sleep(for: every)
                let now = ContinuousClock.now
                let summary = stats.summary(elapsed: now - start)
                progress(Self.line(now - start, summary, since: last.1, interval: now - last.0, pending: stats.pending))
                last = (now, summary)
            }
            await writers.value
            group.cancelAll()
        }
        let elapsed = ContinuousClock.now - start
        for device in devices { await device.client.shutdown() }
        let residentAfter = ResidentMemory.bytes()
        let summary = stats.summary(elapsed: elapsed)
        return FleetReport(
            plan: plan,
            accounts: plan.accounts,
            elapsedSeconds: elapsed / .seconds(1),
            operations: summary.operations,
            convergence: summary.convergence,
            errors: summary.errors,
            memory: FleetReport.Memory(
                residentBeforeBytes: residentBefore,
                residentAfterBytes: residentAfter,
                perDeviceBytes: max(0, residentAfter - residentBefore) / plan.devices
            )
        )
    }

    /// A progress line: time, uploads and fetches a second since the last line, writes that
    /// converged and those travelling, errors.
    static func line(
        _ elapsed: Duration,
        _ now: (operations: [String: FleetReport.Latency], convergence: FleetReport.Convergence, errors: [String: Int]),
        since before: (operations: [String: FleetReport.Latency], convergence: FleetReport.Convergence, errors: [String: Int]),
        interval: Duration,
        pending: Int
    ) -> String {
        let seconds = max(interval / .seconds(1), 0.001)
        func rate(_ name: String) -> Int {
            Int((Double(now.operations[name]?.count ?? 0) - Double(before.operations[name]?.count ?? 0)) / seconds)
        }
        let errors = now.errors.values.reduce(0, +)
        return String(
            format: "%5.0f s  uploads %d/s  fetches %d/s  converged %d  travelling %d  convergence p99 %.0f ms  errors %d",
            elapsed / .seconds(1),
            rate("upload"),
            rate("fetch"),
            now.convergence.converged,
            pending,
            now.convergence.arrivals.p99Milliseconds,
            errors
        )
    }
}

/// This process's resident memory (VmRSS of /proc/self/status), in bytes; 0 where unreadable.
enum ResidentMemory {
    static func bytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
