import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainStore
import LabControl

/// `kclab up --world FILE --state DIR`
struct UpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Build a world if needed, start its services, websites and devices in the background, and wait until they are ready."
    )

    @Option(help: "The world file.")
    var world = "Tools/worlds/demo.yaml"

    @Option(help: "The state folder (built world, databases, sockets, logs).")
    var state = "state"

    func run() async throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        let summary: Lab.Summary
        do {
            summary = try await Lab.up(world: URL(fileURLWithPath: world), state: lab)
        } catch {
            throw fail("\(error)")
        }
        say("keychaind  \(summary.keychaind)   (log: \(lab.log("keychaind").path))")
        for device in summary.devices {
            say("device \(device.id)  \(device.platform) \(device.osVersion)  UDID \(device.udid)  socket \(lab.controlSocket(device.id).path)")
            for app in device.installed {
                say("    installed \(app.bundleID)  (\(app.appID))")
            }
            for (bundleID, reasons) in device.refused.sorted(by: { $0.key < $1.key }) {
                say("    REFUSED   \(bundleID): \(reasons.joined(separator: "; "))")
            }
        }
        if let site = summary.websites {
            let broken = site.hosts.filter { $0.contains(".bad.") }
            let named = site.hosts.filter { !$0.contains(".bad.") }.joined(separator: ", ")
            let catalogue = broken.isEmpty ? "" : " and \(broken.count) broken sites (KIND.bad.DOMAIN)"
            say("websites  https://\(site.address):\(site.port) (nginx, by SNI) for \(named)\(catalogue)")
            say("    check one with: kclab aasa check \(site.hosts.first ?? "HOST") --state \(state)")
            say(
                "    the login website answers on every world host; the browser: kclab app run --state \(state) --device D --app browser -- passwords"
            )
        }
        if let cdn = summary.cdn {
            say("cdn       \(cdn)/a/v1/DOMAIN (Apple-like, caches each file 6 hours; kclab aasa check DOMAIN --state \(state) --cdn)")
        }
        say("services  associationd, webcredentiald (logs in \(lab.logs.path)); prompts: kclab device prompts --state \(state) --device D")
        say("stop with: kclab down --state \(state)")
    }
}

/// `kclab down --state DIR`
struct DownCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down",
        abstract: "Stop every process kclab up started: devices first, keychaind last."
    )

    @Option(help: "The state folder.")
    var state = "state"

    func run() async throws {
        let stopped = await Lab.down(state: LabState(root: URL(fileURLWithPath: state)))
        say(stopped.isEmpty ? "nothing was running in \(state)" : "stopped \(stopped.joined(separator: ", "))")
    }
}

/// `kclab status --state DIR`
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what runs in a state folder.")

    @Option(help: "The state folder.")
    var state = "state"

    func run() throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        guard let record = LabRecord.read(lab) else { throw fail("nothing was started in \(state); run kclab up") }
        for process in record.processes {
            let alive = LabProcesses.isAlive(process.pid)
            say("\(process.name): \(alive ? "running" : "STOPPED") (pid \(process.pid))")
            guard alive, process.name.hasPrefix("device ") else { continue }
            let id = String(process.name.dropFirst("device ".count))
            if let status = try? DeviceClient(state: lab, device: id).status() {
                say("    \(status.platform) \(status.osVersion), \(status.installed.count) apps installed, \(status.refused.count) refused")
            }
        }
    }
}

/// `kclab reset --state DIR`
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove every keychain item of every device (for demos and tests)."
    )

    @Option(help: "The state folder.")
    var state = "state"

    func run() async throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        guard FileManager.default.fileExists(atPath: lab.keychaind.appending(path: "keychain.sqlite").path) else {
            throw fail("no keychain database in \(lab.keychaind.path)")
        }
        let store = try SQLiteItemStore(directory: lab.keychaind)
        let before = try await store.counts().values.reduce(0, +)
        try await store.eraseAll()
        say("removed \(before) items")
    }
}
