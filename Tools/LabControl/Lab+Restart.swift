import Foundation

extension Lab {
    /// The names `restart` and `logs` take: a service, nginx, or a device's ID.
    public static let serviceNames = ["keychaind", "cloudd", "website", "nginx", "cdn", "associationd", "webcredentiald", "console"]

    /// Stops one process of a running lab and starts it again with the arguments `up` gave it,
    /// on the ports it had (so the other processes still reach it), and waits until it is ready.
    /// Returns the new PID.
    public static func restart(_ component: String, state: LabState) async throws -> Int32 {
        guard var record = LabRecord.read(state) else {
            throw LabFailure("nothing was started in \(state.root.path); run kclab up")
        }
        // A service, a replica (cloudd-2) or a PostgreSQL server is recorded by its name; a device as "device ID".
        let name = record.processes.contains { $0.name == component } ? component : "device \(component)"
        guard let index = record.processes.firstIndex(where: { $0.name == name }) else {
            let known = record.processes.map { $0.name.hasPrefix("device ") ? String($0.name.dropFirst(7)) : $0.name }
            throw LabFailure("no \(component) in this lab: one of \(known.joined(separator: ", "))")
        }
        let process = record.processes[index]
        if process.folder != nil {
            record.processes[index].pid = try restartDatabase(process)
            try record.write(state)
            return record.processes[index].pid
        }
        if ScaleCloud.isPart(name) && process.program == nil {
            throw LabFailure(
                "\(name) is a server of a running fleet's own cloud, which goes with the fleet: "
                    + "kclab fleet --fault restart-shard@SECONDS restarts a shard while devices run (docs/scale.md)"
            )
        }
        guard let program = process.program, var arguments = process.arguments else {
            throw LabFailure("this lab was started by an older kclab, which did not record how; run kclab down and up again")
        }
        let endpoint = state.root.appending(path: "\(component)/endpoint.json")
        let ready = name.hasPrefix("device ") ? state.readyFile(component) : (component == "nginx" ? nil : endpoint)
        // A service that was given port 0 listens on the port it picked then, which the others use.
        if let data = try? Data(contentsOf: endpoint), let current = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let url = current["url"] as? String
        {
            arguments = Self.keepingPorts(arguments, url: url, calls: current["calls"] as? String)
        }
        await LabProcesses.stop(process.pid)
        if let ready { try? FileManager.default.removeItem(at: ready) }
        let log = state.log(name.hasPrefix("device ") ? "device-\(component)" : component)
        let pid = try LabProcesses.start(at: URL(fileURLWithPath: program), arguments, log: log)
        record.processes[index] = .init(name: name, pid: pid, program: program, arguments: arguments)
        try record.write(state)
        if let ready {
            try await LabProcesses.waitFor(ready, process: pid, name: name, log: log)
        } else {
            try await Task.sleep(for: .milliseconds(300))
            guard LabProcesses.isAlive(pid) else { throw LabFailure("\(name) stopped while starting; see \(log.path)") }
        }
        return pid
    }

    /// `arguments` with `--port 0` and `--calls-port 0` replaced by the ports of `url` and `calls`.
    static func keepingPorts(_ arguments: [String], url: String, calls: String?) -> [String] {
        var result = arguments
        for (index, argument) in arguments.enumerated() where index + 1 < arguments.count && arguments[index + 1] == "0" {
            if argument == "--port", let port = URL(string: url)?.port {
                result[index + 1] = "\(port)"
            } else if argument == "--calls-port", let calls, let port = calls.split(separator: ":").last {
                result[index + 1] = String(port)
            }
        }
        return result
    }
}
