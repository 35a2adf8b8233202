import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainAPI
import LabControl
import LoginService
import NIOHTTP1
import ServiceSupport

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

    @Option(
        help: """
            Run cloudd as this many replicas (1 to 8) over a PostgreSQL server of the lab's own, the devices taking them \
            in turn: an account's devices then sync through different replicas (docs/scale.md).
            """
    )
    var clouddReplicas = 1

    @Option(
        help: """
            Keep cloudd's accounts on this many PostgreSQL servers of the lab's own (1 to 4), sharded by a stable hash of \
            the account (one with --cloudd-replicas above 1; without either, cloudd keeps SQLite). kclab restart postgres-2 \
            restarts one (docs/scale.md).
            """
    )
    var clouddShards: Int?

    func validate() throws {
        guard (1...Lab.maximumClouddReplicas).contains(clouddReplicas) else {
            throw ValidationError("--cloudd-replicas must be 1 to \(Lab.maximumClouddReplicas)")
        }
        if let clouddShards, !(1...Lab.maximumClouddShards).contains(clouddShards) {
            throw ValidationError("--cloudd-shards must be 1 to \(Lab.maximumClouddShards)")
        }
    }

    func run() async throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        let summary: Lab.Summary
        do {
            summary = try await Lab.up(world: URL(fileURLWithPath: world), state: lab, clouddReplicas: clouddReplicas, clouddShards: clouddShards) {
                stage in
                FileHandle.standardError.write(Data("… \(stage)\n".utf8))
            }
        } catch {
            throw fail("\(error)")
        }
        say("keychaind  \(summary.keychaind)   (log: \(lab.log("keychaind").path))")
        for device in summary.devices {
            say("device \(device.id)  \(device.platform) \(device.osVersion)  UDID \(device.udid)  socket \(lab.controlSocket(device.id).path)")
            for app in device.installed {
                say("    installed \(app.bundleID)  (\(app.appIDText))")
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
        say("services  associationd, webcredentiald, cloudd (logs in \(lab.logs.path)); prompts: kclab device prompts --state \(state) --device D")
        if let console = summary.console {
            say("console: \(console)")
            say("    open it in a browser on this machine; print it again with: kclab console --state \(state)")
        }
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

/// `kclab status --state DIR [--json]`
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what runs in a state folder.",
        discussion: "Exits with status 1 when a process kclab up started has stopped, 2 when nothing was started."
    )

    @Option(help: "The state folder.")
    var state = "state"

    @Flag(help: "Print one JSON object: each process with its pid, whether it runs, and a device's platform and apps.")
    var json = false

    /// One process of the lab, as status reports it.
    struct Component: Encodable {
        let name: String
        let pid: Int32
        let running: Bool
        var platform: String?
        var osVersion: String?
        var installed: Int?
        var refused: Int?
        /// A Mac's login keychain: locked or not.
        var loginKeychainLocked: Bool?
        /// Where the daemon serves Prometheus metrics.
        var metrics: String?
        /// A device's iCloud Keychain: off, or on and online or not, with changes to upload.
        var iCloudKeychain: String?
        /// The console's address, without its token (kclab console prints the URL with it).
        var url: String?
    }

    /// What --json prints.
    struct Report: Encodable {
        let state: String
        let components: [Component]
    }

    func run() throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        guard let record = LabRecord.read(lab) else { throw fail("nothing was started in \(state); run kclab up", code: 2) }
        var components: [Component] = []
        for process in record.processes {
            var component = Component(name: process.name, pid: process.pid, running: LabProcesses.isAlive(process.pid))
            if component.running, process.name == "keychaind" {
                component.metrics = (try? Endpoint.read(from: lab.keychaindEndpoint))?.metrics
            }
            if component.running, process.name == "cloudd" {
                component.metrics = (try? Endpoint.read(from: lab.clouddEndpoint))?.metrics
            }
            if component.running, process.name == "console" {
                component.url = (try? Endpoint.read(from: lab.consoleEndpoint))?.url
            }
            if component.running, process.name.hasPrefix("device "),
                let status = try? DeviceClient(state: lab, device: String(process.name.dropFirst("device ".count))).status()
            {
                component.platform = "\(status.platform)"
                component.osVersion = "\(status.osVersion)"
                component.installed = status.installed.count
                component.refused = status.refused.count
                component.loginKeychainLocked = status.loginKeychainLocked
                let client = try? DeviceClient(state: lab, device: status.id)
                if let sync = try? client?.send(DeviceRequest(.sync(.status))).sync {
                    let online = sync.views.contains(where: \.online)
                    let queued = sync.views.reduce(0) { $0 + $1.outgoing }
                    component.iCloudKeychain =
                        sync.keychainSync ? "on (\(sync.account)), \(online ? "online" : "offline"), \(queued) to upload" : "off (\(sync.account))"
                }
            }
            components.append(component)
        }
        if json {
            say(try JSONOutput.pretty(Report(state: lab.root.path, components: components)))
        } else {
            for component in components {
                say("\(component.name): \(component.running ? "running" : "STOPPED") (pid \(component.pid))")
                if let platform = component.platform, let version = component.osVersion {
                    say("    \(platform) \(version), \(component.installed ?? 0) apps installed, \(component.refused ?? 0) refused")
                }
                if let locked = component.loginKeychainLocked { say("    login keychain: \(locked ? "locked" : "unlocked")") }
                if let sync = component.iCloudKeychain { say("    iCloud Keychain: \(sync)") }
                if let metrics = component.metrics { say("    metrics: \(metrics)") }
                if let url = component.url { say("    url: \(url) (with its token: kclab console --state \(state))") }
            }
        }
        if components.contains(where: { !$0.running }) { throw ExitCode(1) }
    }
}

/// `kclab reset --state DIR [--keep-cloud] [--all]`
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: """
            Start a test case clean: remove every keychain item of every device, empty cloudd's zones of the world's \
            iCloud accounts and reset every device's iCloud Keychain; with --all, website accounts and prompt logs too.
            """,
        discussion: """
            The devices signed in to an account pause their iCloud Keychain first, so that none uploads an old record \
            after the erase; then keychaind removes the items and their queued sync changes, cloudd empties the zones, \
            and each device forgets its change tokens, mirror and queues and starts afresh (a stopped device's saved \
            state is removed). Each daemon is reached through its admin route, which only kclab's administrator \
            certificate may use (docs/icloud-keychain.md, "Resetting the lab").
            """
    )

    @OptionGroup var lab: LabOptions

    @Flag(help: "Remove the keychain items only, as kclab reset did before: cloudd's zones and the devices' iCloud Keychain state stay.")
    var keepCloud = false

    @Flag(help: "Also remove the login website's accounts and sessions, and every device's prompt log: the lab as kclab up left it.")
    var all = false

    func run() async throws {
        if keepCloud {
            let answer: KeychainAPI.ResetAnswer
            do {
                answer = try await lab.withAdministrator { client in
                    try await client.send(.POST, "/v1/admin/reset", [String: String](), as: KeychainAPI.ResetAnswer.self)
                }
            } catch {
                throw fail("\(error)")
            }
            say("removed \(answer.removed) items")
        } else {
            let report: LabReset.Report
            do {
                report = try await LabReset(options: lab).run()
            } catch {
                throw fail("\(error)")
            }
            for line in report.lines { say(line) }
            for (device, reason) in report.notSyncing.sorted(by: { $0.key < $1.key }) { warn("\(device) was not reset: \(reason)") }
        }
        guard all else { return }
        let lab = lab.lab
        let socket = lab.website.appending(path: WebsiteServer.adminSocketName)
        if FileManager.default.fileExists(atPath: socket.path) {
            let client = ServiceClient(unixSocket: socket)
            do {
                let answer = try await client.send(.POST, "/v1/admin/reset", [String: String](), as: KeychainAPI.ResetAnswer.self)
                await client.shutdown()
                say("removed \(answer.removed) website accounts")
            } catch {
                await client.shutdown()
                throw fail("the website did not reset its accounts: \(error)")
            }
        }
        let devices = (try? FileManager.default.contentsOfDirectory(atPath: lab.devices.path)) ?? []
        let logs = devices.map(lab.promptLog).filter { FileManager.default.fileExists(atPath: $0.path) }
        for log in logs { try FileManager.default.removeItem(at: log) }
        say("removed \(logs.count) prompt logs")
    }
}
