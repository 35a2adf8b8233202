import ArgumentParser
import DeviceProtocol
import Fleet
import Foundation
import LabControl
import ServiceSupport

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

    @Option(help: "A scenario file (YAML): the plan's keys, each optional; the options below override it. docs/scale.md.")
    var scenario: String?

    @Option(help: "How many devices (default 1000).")
    var devices: Int?

    @Option(help: "Devices signed in to each account (default 4).")
    var perAccount: Int?

    @Option(help: "How long the devices write, in seconds (default 60).")
    var seconds: Int?

    @Option(help: "How long, at most, to wait afterwards for every write to reach every device of its account (default 20).")
    var settle: Int?

    @Option(help: "Start the devices one after another over this many seconds (default 10).")
    var ramp: Int?

    @Option(help: "Synced writes each device makes a minute, on average (default 6).")
    var writesPerMinute: Double?

    @Option(
        help: """
            SecItem calls each device's app makes a minute on keychaind's call channel, in the \
            scenario's mix or the default one (copy 6, add, update and delete 1 each); 0 makes none.
            """
    )
    var callsPerMinute: Double?

    @Option(help: "Association checks each device makes a minute: may its app use one of its webcredentials hosts (default 1; 0 makes none).")
    var checksPerMinute: Double?

    @Option(
        help:
            "Shared web credential calls each device's app makes a minute, half saves and half requests (default 0.5; 0 makes none)."
    )
    var webCredentialsPerMinute: Double?

    @Option(help: "The share of devices, 0 to 1, whose user declines every prompt; the others approve each (default 0).")
    var declineShare: Double?

    @Option(help: "The world app each device installs and calls from (default: the first whose profile provisions every device).")
    var app: String?

    @Option(help: "How long each wait on the zone lasts when nothing changes, in seconds (1 to 55; 25 by default).")
    var waitSeconds: Int?

    @Option(help: "Another cloudd replica's URL; devices spread over the lab's cloudd and these in turn.")
    var replica: [String] = []

    @Option(help: "Start this many PostgreSQL shards of the fleet's own, and cloudd replicas over them (--replicas).")
    var shards: Int?

    @Option(
        help: """
            Hold each of the fleet's PostgreSQL shards to this many cores (Linux cgroups, as root), as a database machine \
            of its own: on one machine, how the database becomes the bottleneck (docs/scale.md). Not with --fault.
            """
    )
    var shardCores: Double?

    @Option(help: "Start this many cloudd replicas over the fleet's shards (one shard unless --shards says), and spread the devices over them.")
    var replicas: Int?

    @Option(help: "PostgreSQL connections each of the fleet's cloudd replicas opens to each shard, at most (1 to 64; default 8).")
    var connections: Int?

    @Option(
        help: """
            Cause a fault in the fleet's own cloud at a second of the run: kill-replica@SECONDS, \
            restart-shard@SECONDS, pause-shard@SECONDS or promote-standby@SECONDS. Repeatable; needs \
            --shards or --replicas.
            """
    )
    var fault: [String] = []

    @Option(help: "Write the report as JSON to this file too.")
    var json: String?

    @Option(
        help: """
            Run the devices in this many processes, each a share of whole accounts (each device holds \
            up to five connections, and a process may open only so many files). Default: one per 3,000 devices.
            """
    )
    var workers: Int?

    @Option(help: .hidden) var workerShare: String?
    @Option(help: .hidden) var workerRun: String?
    @Option(help: .hidden) var workerPlan: String?
    @Option(help: .hidden) var workerCloudd: [String] = []

    /// The plan: the scenario's (or the defaults), with the options given on top.
    func plan() throws -> FleetPlan {
        if let workerPlan { return try JSONDecoder().decode(FleetPlan.self, from: Data(workerPlan.utf8)) }
        var overrides = FleetPlan.Overrides()
        (overrides.devices, overrides.devicesPerAccount, overrides.seconds) = (devices, perAccount, seconds)
        (overrides.settleSeconds, overrides.rampSeconds, overrides.waitSeconds) = (settle, ramp, waitSeconds)
        (overrides.writesPerDeviceMinute, overrides.callsPerMinute) = (writesPerMinute, callsPerMinute)
        (overrides.associationChecksPerDeviceMinute, overrides.webCredentialsPerDeviceMinute) = (checksPerMinute, webCredentialsPerMinute)
        (overrides.app, overrides.faults, overrides.declineShare) = (app, fault, declineShare)
        do {
            return try FleetPlan(scenario: scenario.map { URL(fileURLWithPath: $0) }, overrides: overrides)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let plan = try plan()
        if !plan.faults.isEmpty, shards == nil, replicas == nil {
            throw ValidationError("--fault acts on the fleet's own cloud: give --shards or --replicas")
        }
        if let connections {
            guard shards != nil || replicas != nil else {
                throw ValidationError("--connections sizes the fleet's own cloud: give --shards or --replicas")
            }
            guard (1...64).contains(connections) else { throw ValidationError("--connections must be 1 to 64") }
        }
        if let shardCores {
            guard shards != nil || replicas != nil else { throw ValidationError("--shard-cores holds the fleet's own shards: give --shards") }
            guard (0.05...64).contains(shardCores) else { throw ValidationError("--shard-cores must be 0.05 to 64") }
            // A shard restarted or promoted by a fault would run outside its group.
            guard plan.faults.isEmpty else { throw ValidationError("--shard-cores cannot be given with --fault") }
        }
        if let workerShare, let workerRun {
            return try await work(plan, share: workerShare, run: workerRun)
        }
        let processes = workers ?? (plan.devices + Self.devicesPerWorker - 1) / Self.devicesPerWorker
        guard (1...64).contains(processes) else { throw ValidationError("--workers must be 1 to 64") }
        let scale: ScaleCloud?
        let urls: [String]
        if shards != nil || replicas != nil {
            let cloud = try await ScaleCloud.start(
                state: lab.lab,
                shards: shards ?? 1,
                replicas: replicas ?? 1,
                standbys: plan.faults.contains { $0.kind == .promoteStandby },
                shardCores: shardCores,
                connections: connections
            ) { line in warn(line) }
            scale = cloud
            urls = cloud.replicas + replica
        } else {
            scale = nil
            guard let cloudd = lab.cloudd ?? SiteRecord.endpointURL(lab.lab.clouddEndpoint) else {
                throw LabFailure("cloudd is not running in \(lab.state); start the lab with kclab up")
            }
            urls = [cloudd] + replica
        }
        // What the cloud holds: the fleet's own, or the lab's cloudd (its pid is in its endpoint)
        // when it runs on this machine: in the compose lab the pid is another container's.
        let labCloudd =
            (try? Endpoint.read(from: lab.lab.clouddEndpoint)).flatMap { endpoint in
                ["127.0.0.1", "localhost", "::1", "[::1]"].contains(URLComponents(string: endpoint.url)?.host ?? "") ? endpoint.pid : nil
            } ?? 0
        let cloudMemory = ProcessMemory.peak(every: .seconds(2)) {
            scale?.residentBytes ?? (labCloudd > 0 ? ProcessMemory.resident(labCloudd) : 0)
        }
        var report: FleetReport
        do {
            let state = lab.lab
            let inject: @Sendable (FleetFault) async throws -> String = { fault in
                guard let scale else { throw LabFailure("no cloud of the fleet's own") }
                switch fault.kind {
                case .killReplica: return try scale.killReplica(state: state)
                case .restartShard: return try await scale.restartShard(state: state)
                case .pauseShard: return try await scale.pauseShard()
                case .promoteStandby: return try scale.promoteStandby(state: state)
                }
            }
            if processes == 1 {
                report = try await FleetRunner.run(plan, services: try services(cloudd: urls), inject: inject) { line in warn(line) }
            } else {
                report = try await FleetWorkers.run(
                    plan,
                    workers: processes,
                    executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                    arguments: { share, run in try workerArguments(plan, share: share, run: run, cloudd: urls) },
                    inject: inject,
                    progress: { line in warn(line) }
                )
            }
        } catch {
            cloudMemory.cancel()
            await scale?.stop(state: lab.lab)
            throw error
        }
        cloudMemory.cancel()
        report.memory.cloudPeakBytes = await cloudMemory.value
        await scale?.stop(state: lab.lab)
        for line in report.lines { say(line) }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: json))
        }
        // Slowness is a figure; a lost acknowledged write is a failure.
        if report.audit.lost > 0 {
            throw LabFailure("\(report.audit.lost) acknowledged writes are missing from cloudd")
        }
        // So is a fault that could not be caused: the run did not test what it was asked to.
        if let fault = report.faults.first(where: \.failed) {
            throw LabFailure("fault \(fault.fault) could not be caused: \(fault.outcome)")
        }
    }

    /// What the devices reach: the lab's world and keychaind (from its endpoint file), and `cloudd`.
    func services(cloudd: [String]) throws -> FleetServices {
        let endpoint = try? Endpoint.read(from: lab.lab.keychaindEndpoint)
        return FleetServices(
            world: lab.lab.builtWorld,
            cloudd: cloudd,
            keychaind: try endpoint.flatMap { endpoint in try endpoint.calls.map { try FleetServices.Keychaind(url: endpoint.url, calls: $0) } },
            associationd: SiteRecord.endpointURL(lab.lab.associationdEndpoint),
            webcredentiald: SiteRecord.endpointURL(lab.lab.webcredentialdEndpoint)
        )
    }

    /// The most devices one process runs by default.
    static let devicesPerWorker = 3000

    /// A worker's command line: the plan (as JSON, faults left to this process), its share, the
    /// run and the replicas.
    func workerArguments(_ plan: FleetPlan, share: Range<Int>, run: String, cloudd: [String]) throws -> [String] {
        var plan = plan
        plan.faults = []
        return [
            "fleet", "--state", lab.state, "--worker-plan", String(decoding: try JSONEncoder().encode(plan), as: UTF8.self),
            "--worker-share", "\(share.lowerBound)-\(share.upperBound)", "--worker-run", run,
        ] + cloudd.flatMap { ["--worker-cloudd", $0] }
    }

    /// Runs as one worker of a fleet (FleetWorkers).
    func work(_ plan: FleetPlan, share: String, run: String) async throws {
        let bounds = share.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] < bounds[1] else { throw ValidationError("--worker-share is FIRST-END") }
        let range = bounds[0]..<bounds[1]
        let progress: @Sendable (String) -> Void = { line in warn("worker \(share): \(line)") }
        let devices = try FleetShare(plan, devices: range, run: run, services: try services(cloudd: workerCloudd), progress: progress)
        try await FleetWorkers.work(devices, progress: progress)
    }
}
