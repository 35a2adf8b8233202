import Foundation
import Synchronization

/// Reads every process's arguments (`/proc/PID/cmdline`) over and over on a thread of its own,
/// noting any that hold one of `secrets`: what `ps` would show anyone on the machine. Only the
/// processes of the run watched count: those whose arguments, or an ancestor's, name `scope`
/// (its state folder); another test running at the same time may pass the same made-up
/// passwords to its own tools.
final class CommandLineWatcher: Sendable {
    struct Seen: Sendable {
        var scans = 0
        var leaks: Set<String> = []
    }

    private let secrets: Set<String>
    private let scope: String
    private let seen = Mutex(Seen())
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(secrets: Set<String>, scope: String) {
        self.secrets = secrets
        self.scope = scope
    }

    func start() {
        running.store(true, ordering: .sequentiallyConsistent)
        Thread { [self] in
            while running.load(ordering: .sequentiallyConsistent) {
                scan()
                Thread.sleep(forTimeInterval: 0.005)
            }
            done.signal()
        }.start()
    }

    /// Stops watching and tells what was seen.
    func stop() -> Seen {
        running.store(false, ordering: .sequentiallyConsistent)
        done.wait()
        return seen.withLock { $0 }
    }

    private func scan() {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var leaks: [String] = []
        for pid in processes where pid.allSatisfy(\.isNumber) {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { continue }
            let arguments = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            if secrets.contains(where: { arguments.contains($0) }), belongs(pid) { leaks.append(arguments) }
        }
        seen.withLock {
            $0.scans += 1
            $0.leaks.formUnion(leaks)
        }
    }

    /// Whether the process, or one of its ancestors, names the scope in its arguments.
    private func belongs(_ pid: String) -> Bool {
        var current = pid
        for _ in 0..<64 {
            guard let data = FileManager.default.contents(atPath: "/proc/\(current)/cmdline") else { return false }
            if String(decoding: data, as: UTF8.self).contains(scope) { return true }
            // /proc/PID/stat: "pid (name) state ppid …"; the name may hold spaces and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int(fields[1]), parent > 1 else { return false }
            current = String(parent)
        }
        return false
    }
}
