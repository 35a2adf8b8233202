public import Foundation

/// Starting and stopping the lab's processes.
public enum LabProcesses {
    /// The folder holding the built executables (keychaind, device) beside the running one.
    public static var binaries: URL {
        if let override = ProcessInfo.processInfo.environment["KCLAB_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }

    /// Starts `executable` in the background, its output going to `log`; it outlives this process.
    public static func start(_ executable: String, _ arguments: [String], log: URL) throws -> Int32 {
        try start(at: binaries.appending(path: executable), arguments, log: log)
    }

    /// Starts the program at `url` in the background, its output going to `log`.
    public static func start(at url: URL, _ arguments: [String], log: URL) throws -> Int32 {
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process.processIdentifier
    }

    /// Whether a process is alive (and not a zombie waiting for us).
    public static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.contains(") Z ")
    }

    /// Sends SIGTERM, waits up to `timeout` for the process to end, then SIGKILL.
    public static func stop(_ pid: Int32, timeout: Duration = .seconds(10)) async {
        guard isAlive(pid) else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while isAlive(pid), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if isAlive(pid) { kill(pid, SIGKILL) }
    }

    /// Waits until `file` exists, failing early if `pid` dies.
    public static func waitFor(_ file: URL, process pid: Int32, name: String, log: URL, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !FileManager.default.fileExists(atPath: file.path) {
            guard isAlive(pid) else {
                throw LabFailure("\(name) stopped while starting; see \(log.path):\n\(tail(log))")
            }
            guard ContinuousClock.now < deadline else {
                throw LabFailure("\(name) did not become ready in time; see \(log.path)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The last lines of a log, for error messages.
    public static func tail(_ log: URL, lines: Int = 10) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// A lab that cannot be started, stopped or reached.
public struct LabFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
