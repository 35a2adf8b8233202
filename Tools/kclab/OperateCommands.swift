import ArgumentParser
import Foundation
import LabControl

/// `kclab restart --state DIR COMPONENT`
struct RestartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart",
        abstract: "Stop one daemon or device of a running lab and start it again, on the same ports, without a full down and up.",
        discussion: """
            COMPONENT: keychaind, associationd, webcredentiald, cloudd (cloudd-2 … with --cloudd-replicas), postgres \
            (postgres-2 …: the lab's own PostgreSQL servers, restarted on their ports from their folders), cdn, website, \
            nginx, console (on its port, with a new token: kclab console prints the new URL), or a device's ID.
            """
    )

    @Option(help: "The state folder.")
    var state = "state"

    @Argument(help: "What to restart.")
    var component: String

    func run() async throws {
        do {
            let pid = try await Lab.restart(component, state: LabState(root: URL(fileURLWithPath: state)))
            say("restarted \(component) (pid \(pid))")
        } catch {
            throw fail("\(error)")
        }
    }
}

/// `kclab logs --state DIR [COMPONENT] [--lines N] [--follow]`
struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Print the last lines of a lab's logs (every process's, or one), and with --follow, what they write next.",
        discussion: """
            COMPONENT: keychaind, associationd, webcredentiald, cdn, website, nginx, console, cloudd (cloudd-2 …), postgres \
            (postgres-2 …: the lab's own PostgreSQL servers, with --cloudd-replicas or --cloudd-shards), a device's ID, audit: keychaind's \
            audit log, one JSON line per decision (time, device, app, operation, status, rule), or cloudd-audit: cloudd's \
            (time, device, account, view, operation, status, outcome). Logs never hold a secret.
            """
    )

    @Option(help: "The state folder.")
    var state = "state"

    @Argument(help: "One process's log; omitted, every log, each line prefixed with its process.")
    var component: String?

    @Option(help: "How many lines of each log to print first.")
    var lines = 20

    @Flag(help: "Keep printing what the logs write, until interrupted.")
    var follow = false

    func validate() throws {
        guard lines >= 0 else { throw ValidationError("--lines must be 0 or more") }
    }

    func run() async throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        let files = try logFiles(lab)
        var offsets: [String: UInt64] = [:]
        for (name, file) in files {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").suffix(lines) { say(prefixed(name, line)) }
            offsets[name] = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64) ?? 0
        }
        while follow {
            try await Task.sleep(for: .milliseconds(250))
            for (name, file) in files {
                guard let handle = try? FileHandle(forReadingFrom: file) else { continue }
                defer { try? handle.close() }
                try handle.seek(toOffset: offsets[name] ?? 0)
                let data = handle.readDataToEndOfFile()
                guard let last = data.lastIndex(of: 0x0A) else { continue }
                offsets[name, default: 0] += UInt64(last + 1 - data.startIndex)
                for line in String(decoding: data[..<last], as: UTF8.self).split(separator: "\n") { say(prefixed(name, line)) }
            }
        }
    }

    private func prefixed(_ name: String, _ line: Substring) -> String {
        component == nil ? "\(name) | \(line)" : String(line)
    }

    /// The logs to print: the component's, or every process's log in the lab.
    private func logFiles(_ lab: LabState) throws -> [(String, URL)] {
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: lab.logs.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()
        guard !present.isEmpty else { throw fail("no logs in \(lab.logs.path); start a lab with kclab up", code: 2) }
        guard let component else { return present.map { ($0, lab.log($0)) } }
        if component == "audit" { return [("audit", lab.keychaind.appending(path: "audit.jsonl"))] }
        if component == "cloudd-audit" { return [("cloudd-audit", lab.cloudd.appending(path: "audit.jsonl"))] }
        // The lab's own PostgreSQL servers log in their folders, which PostgreSQL's user owns.
        if let log = LabRecord.read(lab)?.processes.first(where: { $0.name == component })?.databaseLog {
            return [(component, log)]
        }
        for name in [component, "device-\(component)"] where present.contains(name) { return [(name, lab.log(name))] }
        throw fail("no log for \(component): one of \((present + ["audit", "cloudd-audit"]).joined(separator: ", "))", code: 2)
    }
}
