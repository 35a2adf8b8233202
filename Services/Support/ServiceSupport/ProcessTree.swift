import Foundation

/// Processes and their descendants, read from /proc: a PostgreSQL server is its postmaster and
/// one backend per connection, so what is measured or limited of it is the whole tree.
public enum ProcessTree {
    /// `roots` and every process descended from them, alive now.
    public static func members(of roots: [Int32]) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let parent = parent(inStat: stat)
            else { continue }
            parents[pid] = parent
        }
        return members(of: roots, parents: parents)
    }

    /// The parent's ID in a `/proc/PID/stat` line: after the command's closing parenthesis (a
    /// command may hold spaces and parentheses), the state, then the parent.
    static func parent(inStat stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// The members of `roots`' trees, given each process's parent.
    static func members(of roots: [Int32], parents: [Int32: Int32]) -> [Int32] {
        let rootSet = Set(roots)
        func inTree(_ pid: Int32) -> Bool {
            var current = pid
            for _ in 0..<64 {
                if rootSet.contains(current) { return true }
                guard let parent = parents[current], parent > 1 else { return false }
                current = parent
            }
            return false
        }
        return parents.keys.filter(inTree).sorted()
    }
}
