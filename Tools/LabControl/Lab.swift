public import DeviceProtocol
public import Foundation
import WebsiteFixture
import WorldBuilder
import WorldFile

/// `kclab up` and `kclab down`: a world's services, devices and console as background processes.
public enum Lab {
    /// What `up` started.
    public struct Summary: Sendable {
        public var keychaind: String
        public var devices: [DeviceStatus]
        /// Where nginx serves the world's websites, if it does.
        public var websites: SiteRecord?
        /// The Apple-like CDN's URL, when there are websites.
        public var cdn: String?
        /// The console's URL with its token (docs/console.md); nil in a lab `up` did not start.
        public var console: String? = nil
    }

    /// The most cloudd replicas `up` starts.
    public static let maximumClouddReplicas = 8

    /// Builds the world if needed, starts keychaind, the other services and every device, then the
    /// console (whose URL, with its token, is the summary's `console`), and waits until they are ready.
    /// With `clouddReplicas` above 1, cloudd runs as that many replicas over PostgreSQL servers
    /// of the lab's own (`clouddShards` of them, the accounts sharded over them; one by default),
    /// and the devices are spread over the replicas in turn, so that an account's devices sync
    /// through different replicas (docs/scale.md). `clouddShards` alone puts the one cloudd on
    /// that many servers; neither keeps it on SQLite.
    /// `progress` hears each stage as it begins (kclab up prints them on standard error).
    public static func up(
        world file: URL,
        state: LabState,
        clouddReplicas: Int = 1,
        clouddShards: Int? = nil,
        progress: (String) -> Void = { _ in }
    ) async throws -> Summary {
        guard (1...maximumClouddReplicas).contains(clouddReplicas) else {
            throw LabFailure("a lab runs 1 to \(maximumClouddReplicas) cloudd replicas, not \(clouddReplicas)")
        }
        if let clouddShards, !(1...maximumClouddShards).contains(clouddShards) {
            throw LabFailure("a lab's cloudd runs on 1 to \(maximumClouddShards) PostgreSQL shards, not \(clouddShards)")
        }
        let databases = clouddShards ?? (clouddReplicas > 1 ? 1 : 0)
        if let record = LabRecord.read(state), record.processes.contains(where: { LabProcesses.isAlive($0.pid) }) {
            throw LabFailure("a lab is already running in \(state.root.path); run kclab down --state \(state.root.path) first")
        }
        let world = try World.load(contentsOf: file)
        progress("building the world '\(world.name)' in \(state.builtWorld.path)")
        _ = try WorldBuilder(world: world, output: state.builtWorld, programs: LabProcesses.binaries).build()
        try? FileManager.default.removeItem(at: state.keychaindEndpoint)
        var record = LabRecord(worldFile: file.path, processes: [])
        var websites: SiteRecord? = nil
        var cdn: String? = nil
        /// Starts a service (the program `program`, or `name`) and waits for its endpoint file.
        func service(_ name: String, program: String? = nil, _ arguments: [String], endpoint: URL) async throws {
            let program = program ?? name
            progress("starting \(name)")
            try? FileManager.default.removeItem(at: endpoint)
            let pid = try LabProcesses.start(program, arguments, log: state.log(name))
            record.processes.append(.init(name: name, pid: pid, program: LabProcesses.binaries.appending(path: program).path, arguments: arguments))
            try record.write(state)
            try await LabProcesses.waitFor(endpoint, process: pid, name: name, log: state.log(name))
        }
        // Free ports for every daemon's metrics, or none at all with METRICS_PORT=off.
        let metricsPort = ProcessInfo.processInfo.environment["METRICS_PORT"] == "off" ? "off" : "0"
        do {
            try await service(
                "keychaind",
                [
                    "--world", state.builtWorld.path, "--state", state.keychaind.path, "--port", "0", "--calls-port", "0", "--metrics-port",
                    metricsPort,
                ],
                endpoint: state.keychaindEndpoint
            )
            // The replicas share the lab's own PostgreSQL servers, whose folders go when the lab does.
            let store =
                databases == 0 ? [] : try startDatabases(databases, record: &record, state: state, progress: progress).flatMap { ["--store", $0] }
            for number in 1...clouddReplicas {
                let folder = number == 1 ? state.cloudd : state.clouddReplicaEndpoint(number).deletingLastPathComponent()
                try await service(
                    number == 1 ? "cloudd" : "cloudd-\(number)",
                    program: "cloudd",
                    ["--world", state.builtWorld.path, "--state", folder.path, "--port", "0", "--metrics-port", metricsPort] + store,
                    endpoint: state.clouddReplicaEndpoint(number)
                )
            }
            try? FileManager.default.removeItem(at: state.siteFile)
            var loginService: String? = nil
            if !world.websites.isEmpty {
                try await service(
                    "website",
                    ["--world", file.path, "--state", state.website.path, "--port", "0"],
                    endpoint: state.websiteEndpoint
                )
                loginService = SiteRecord.endpointURL(state.websiteEndpoint).map { $0.replacingOccurrences(of: "http://", with: "") }
            }
            if !world.websites.isEmpty { progress("starting nginx for the world's websites") }
            if let (pid, site, arguments) = try startWebsites(world, state: state, loginService: loginService) {
                record.processes.append(.init(name: "nginx", pid: pid, program: NginxProcess.executable.path, arguments: arguments))
                try record.write(state)
                try await waitForWebsites(site, pid: pid, state: state)
                websites = site
                try await service(
                    "cdn",
                    ["--world", state.builtWorld.path, "--state", state.cdn.path, "--port", "0"] + site.resolveArguments,
                    endpoint: state.cdnEndpoint
                )
                cdn = SiteRecord.endpointURL(state.cdnEndpoint)
            }
            var associationArguments = [
                "--world", state.builtWorld.path, "--state", state.associationd.path, "--port", "0", "--metrics-port", metricsPort,
            ]
            if let cdn { associationArguments += ["--cdn", cdn] }
            associationArguments += websites?.resolveArguments ?? []
            try await service("associationd", associationArguments, endpoint: state.associationdEndpoint)
            try await service(
                "webcredentiald",
                [
                    "--world", state.builtWorld.path, "--state", state.webcredentiald.path, "--port", "0", "--metrics-port", metricsPort,
                    "--keychaind", SiteRecord.endpointURL(state.keychaindEndpoint) ?? "",
                    "--associationd", SiteRecord.endpointURL(state.associationdEndpoint) ?? "",
                ],
                endpoint: state.webcredentialdEndpoint
            )
            var devicePIDs: [Int32] = []
            progress("starting \(world.devices.count) devices: \(world.devices.map(\.id).joined(separator: ", "))")
            for (index, device) in world.devices.enumerated() {
                try? FileManager.default.removeItem(at: state.readyFile(device.id))
                // Devices take the replicas in turn.
                let arguments = [
                    "--world", file.path, "--built", state.builtWorld.path, "--id", device.id,
                    "--state", state.device(device.id).path, "--keychaind", state.keychaindEndpoint.path,
                    "--associationd", state.associationdEndpoint.path, "--webcredentiald", state.webcredentialdEndpoint.path,
                    "--cloudd", state.clouddReplicaEndpoint(index % clouddReplicas + 1).path, "--sites", state.siteFile.path,
                ]
                let pid = try LabProcesses.start("device", arguments, log: state.log("device-\(device.id)"))
                record.processes.append(
                    .init(name: "device \(device.id)", pid: pid, program: LabProcesses.binaries.appending(path: "device").path, arguments: arguments)
                )
                devicePIDs.append(pid)
                try record.write(state)
            }
            for (device, pid) in zip(world.devices, devicePIDs) {
                progress("waiting for \(device.id) to install its apps")
                try await LabProcesses.waitFor(
                    state.readyFile(device.id),
                    process: pid,
                    name: "device \(device.id)",
                    log: state.log("device-\(device.id)")
                )
            }
            // Last, so that its URL opens a lab that is ready; it reads the world file and
            // keychaind's audit route, nothing else.
            try? FileManager.default.removeItem(at: state.consoleURLFile)
            let daemons = [("--keychaind", state.keychaindEndpoint), ("--associationd", state.associationdEndpoint)].flatMap { flag, endpoint in
                SiteRecord.endpointURL(endpoint).map { [flag, $0] } ?? []
            }
            try await service(
                "console",
                ["--world", file.path, "--state", state.console.path, "--port", "0", "--url-file", state.consoleURLFile.path]
                    + daemons + ["--built", state.builtWorld.path],
                endpoint: state.consoleEndpoint
            )
        } catch {
            for process in record.processes.reversed() {
                await LabProcesses.stop(process.pid)
                if let folder = process.folder { try? FileManager.default.removeItem(atPath: folder) }
            }
            throw error
        }
        var devices: [DeviceStatus] = []
        for device in world.devices {
            devices.append(try DeviceClient(state: state, device: device.id).status())
        }
        let endpoint = (try? Data(contentsOf: state.keychaindEndpoint)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        return Summary(keychaind: endpoint?["url"] as? String ?? "?", devices: devices, websites: websites, cdn: cdn, console: state.consoleURL)
    }

    /// Stops every process `up` started, in the reverse order (the console first, keychaind last),
    /// and removes the console's URL, whose token opens nothing any more.
    public static func down(state: LabState) async -> [String] {
        guard let record = LabRecord.read(state) else { return [] }
        var stopped: [String] = []
        for process in record.processes.reversed() {
            if LabProcesses.isAlive(process.pid) {
                await LabProcesses.stop(process.pid)
                stopped.append(process.name)
            }
            if let folder = process.folder { try? FileManager.default.removeItem(atPath: folder) }
        }
        try? FileManager.default.removeItem(at: state.labFile)
        try? FileManager.default.removeItem(at: state.consoleURLFile)
        return stopped
    }
}

/// kclab's connection to one device's control socket.
public struct DeviceClient {
    private let socket: LineSocket

    public init(state: LabState, device: String) throws {
        let path = state.controlSocket(device)
        guard FileManager.default.fileExists(atPath: path.path) else {
            let devices = ((try? FileManager.default.contentsOfDirectory(atPath: state.devices.path)) ?? [])
                .filter { FileManager.default.fileExists(atPath: state.controlSocket($0).path) }.sorted()
            guard devices.isEmpty else {
                throw LabFailure("no device \(device) runs in \(state.root.path); running: \(devices.joined(separator: ", "))")
            }
            throw LabFailure("no device runs in \(state.root.path); start the lab with kclab up")
        }
        do {
            socket = try LineSocket(path: path.path)
        } catch {
            // The socket is there but nobody answers: the device's process ended without removing it.
            throw LabFailure(
                "device \(device) does not answer on \(path.path) (\(error)): it has stopped; "
                    + "start it again with kclab restart --state \(state.root.path) \(device) (its log: kclab logs --state \(state.root.path) \(device))"
            )
        }
    }

    /// Sends a request and returns the device's answer.
    public func send(_ request: DeviceRequest) throws -> DeviceResponse {
        try socket.exchange(request, as: DeviceResponse.self)
    }

    /// Sends a `run` or `exec` request whose program's output comes as it prints it: `output` is
    /// called with each part, and the last answer (its exit status) is returned.
    public func send(_ request: DeviceRequest, output: (String) -> Void) throws -> DeviceResponse {
        var streaming = request
        streaming.streamsOutput = true
        var answer = try socket.exchange(streaming, as: DeviceResponse.self)
        while answer.partial == true {
            output(answer.output ?? "")
            answer = try socket.receive(DeviceResponse.self)
        }
        return answer
    }

    /// The device's status.
    public func status() throws -> DeviceStatus {
        guard let status = try send(DeviceRequest(.status)).device else { throw LabFailure("the device gave no status") }
        return status
    }
}

extension Lab {
    /// The summary of a lab someone else started (the compose lab, whose services run in their
    /// own containers and share the state folder): waits until every device of the world answers
    /// on its control socket, up to `timeout`.
    public static func attach(world file: URL, state: LabState, keychaind: String, timeout: Duration = .seconds(120)) async throws -> Summary {
        let world = try World.load(contentsOf: file)
        let deadline = ContinuousClock.now + timeout
        var devices: [DeviceStatus] = []
        for device in world.devices {
            while true {
                if let status = try? DeviceClient(state: state, device: device.id).status() {
                    devices.append(status)
                    break
                }
                guard ContinuousClock.now < deadline else {
                    throw LabFailure("device \(device.id) does not answer on \(state.controlSocket(device.id).path); is the lab up?")
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        let websites = world.websites.isEmpty ? nil : SiteRecord(address: "nginx", port: 443, hosts: world.websites.map(\.domain))
        return Summary(keychaind: keychaind, devices: devices, websites: websites, cdn: nil)
    }
}
