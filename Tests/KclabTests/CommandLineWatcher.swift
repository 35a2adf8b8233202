import Foundation
import Synchronization

/// Reads every process's arguments (`/proc/PID/cmdline`) over and over on a thread of its own,
/// noting any that hold one of `secrets`: what `ps` would show anyone on the machine.
final class CommandLineWatcher: Sendable {
    struct Seen: Sendable {
        var scans = 0
        var leaks: Set<String> = []
    }

    private let secrets: Set<String>
    private let seen = Mutex(Seen())
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(secrets: Set<String>) {
        self.secrets = secrets
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
            if secrets.contains(where: { arguments.contains($0) }) { leaks.append(arguments) }
        }
        seen.withLock {
            $0.scans += 1
            $0.leaks.formUnion(leaks)
        }
    }
}
