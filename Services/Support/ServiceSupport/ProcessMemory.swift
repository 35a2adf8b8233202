import Foundation

/// What processes hold in memory, read from /proc: a process's resident set (VmRSS), and a whole
/// tree's (a PostgreSQL server is its postmaster and one backend per connection). The fleet
/// measures itself with it, and `kclab fleet` the cloud it runs against.
public enum ProcessMemory {
    /// `pid`'s resident memory in bytes; 0 when it is gone or unreadable.
    public static func resident(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The resident memory of `roots` and every process descended from them, in bytes.
    public static func tree(_ roots: [Int32]) -> Int {
        ProcessTree.members(of: roots).reduce(0) { $0 + resident($1) }
    }
}

extension ProcessMemory {
    /// Reads `read` now and every `interval` until the task is cancelled; the task's value is the
    /// most it read.
    public static func peak(every interval: Duration, _ read: @escaping @Sendable () -> Int) -> Task<Int, Never> {
        Task {
            var most = read()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                most = max(most, read())
            }
            return most
        }
    }
}
