public import Foundation
import ServiceSupport

/// A Linux control group that holds processes to a share of the machine's cores: how the fleet
/// gives each PostgreSQL shard a machine of its own on one machine (`kclab fleet --shard-cores`),
/// so that the database, not the cores everything else shares, is the bottleneck. cgroup v2
/// (`cpu.max`) or v1's cpu controller (`cpu.cfs_quota_us`); needs root.
public struct CPULimit: Sendable {
    public let folder: URL
    public let cores: Double

    /// The scheduler's period: the group runs at most `cores` × this in each.
    static let periodMicroseconds = 100_000

    /// The files of the group and what each is set to, for cgroup v2 or v1.
    static func settings(cores: Double, version2: Bool) -> [(file: String, value: String)] {
        let quota = max(1_000, Int((cores * Double(periodMicroseconds)).rounded()))
        return version2
            ? [("cpu.max", "\(quota) \(periodMicroseconds)")]
            : [("cpu.cfs_period_us", "\(periodMicroseconds)"), ("cpu.cfs_quota_us", "\(quota)")]
    }

    /// Makes the group `name`, held to `cores`.
    public static func make(_ name: String, cores: Double) throws -> CPULimit {
        let files = FileManager.default
        let version2 = files.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers")
        let root = version2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/cpu"
        guard files.fileExists(atPath: root + "/cgroup.procs") else {
            throw LabFailure("no cgroup CPU controller at \(root): holding a shard to some cores needs Linux cgroups")
        }
        let folder = URL(fileURLWithPath: root).appending(path: name)
        do {
            if version2 { try? write("+cpu", to: root + "/cgroup.subtree_control") }
            try files.createDirectory(at: folder, withIntermediateDirectories: false)
            for (file, value) in settings(cores: cores, version2: version2) {
                try write(value, to: folder.appending(path: file).path)
            }
        } catch {
            throw LabFailure("cannot hold \(name) to \(cores) cores in \(root) (it needs root): \(error)")
        }
        return CPULimit(folder: folder, cores: cores)
    }

    /// Moves `pid` and every process descended from it into the group; the processes they start
    /// later are born in it (a PostgreSQL backend per connection).
    public func hold(tree pid: Int32) throws {
        for member in ProcessTree.members(of: [pid]) {
            try Self.write("\(member)", to: folder.appending(path: "cgroup.procs").path)
        }
    }

    /// Removes the group; one still holding a process stays (the kernel refuses).
    public func remove() {
        _ = rmdir(folder.path)
    }

    private static func write(_ value: String, to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw LabFailure("cannot open \(path)") }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(value.utf8))
    }
}
