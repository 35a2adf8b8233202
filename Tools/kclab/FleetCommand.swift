import ArgumentParser
import DeviceProtocol
import Fleet
import Foundation
import LabControl

/// `kclab fleet`: thousands of light devices against the lab's cloudd (docs/scale.md).
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Run a fleet of light simulated devices against cloudd and report throughput, latency and convergence.",
        discussion: """
            Each device is a task with a device identity of its own, minted from the lab's device \
            CA and signed in to one of the run's own accounts (fleet-RUN-N@fleet.keychainlab.test). It \
            speaks cloudd's protocol as a real device's sync engine does: it writes synced \
            passwords, sealed with its account's key, at random intervals, and keeps waiting on \
            its account's zone and fetching what changed. Latencies are HdrHistogram percentiles; \
            convergence is the time from a write's save to its arrival at each other device of \
            the account. Needs a running lab (kclab up). docs/scale.md.
            """
    )

    @OptionGroup var lab: LabOptions

    @Option(help: "How many devices.")
    var devices = 1000

    @Option(help: "Devices signed in to each account.")
    var perAccount = 4

    @Option(help: "How long the devices write, in seconds.")
    var seconds = 60

    @Option(help: "How long, at most, to wait afterwards for every write to reach every device of its account.")
    var settle = 20

    @Option(help: "Start the devices one after another over this many seconds.")
    var ramp = 10

    @Option(help: "Synced writes each device makes a minute, on average.")
    var writesPerMinute = 6.0

    @Option(help: "Another cloudd replica's URL; devices spread over the lab's cloudd and these in turn.")
    var replica: [String] = []

    @Option(help: "Start this many PostgreSQL shards of the fleet's own, and cloudd replicas over them (--replicas).")
    var shards: Int?

    @Option(help: "Start this many cloudd replicas over the fleet's shards (one shard unless --shards says), and spread the devices over them.")
    var replicas: Int?

    @Option(help: "Write the report as JSON to this file too.")
    var json: String?

    func run() async throws {
        var plan = FleetPlan()
        plan.devices = devices
        plan.devicesPerAccount = perAccount
        plan.seconds = seconds
        plan.settleSeconds = settle
        plan.rampSeconds = ramp
        plan.writesPerDeviceMinute = writesPerMinute
        do {
            try plan.validate()
        } catch {
            throw ValidationError(error.description)
        }
        var scale: ScaleCloud? = nil
        let urls: [String]
        if shards != nil || replicas != nil {
            let cloud = try await ScaleCloud.start(state: lab.lab, shards: shards ?? 1, replicas: replicas ?? 1) { line in warn(line) }
            scale = cloud
            urls = cloud.replicas + replica
        } else {
            guard let cloudd = lab.cloudd ?? SiteRecord.endpointURL(lab.lab.clouddEndpoint) else {
                throw LabFailure("cloudd is not running in \(lab.state); start the lab with kclab up")
            }
            urls = [cloudd] + replica
        }
        let report: FleetReport
        do {
            report = try await FleetRunner.run(plan, world: lab.lab.builtWorld, cloudd: urls) { line in warn(line) }
        } catch {
            await scale?.stop(state: lab.lab)
            throw error
        }
        await scale?.stop(state: lab.lab)
        for line in report.lines { say(line) }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: json))
        }
    }
}
