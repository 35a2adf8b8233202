import DeviceProtocol
import Foundation
import Synchronization

/// Starts app processes with the device's environment and waits for them.
enum AppLauncher {
    /// The most an app is given on its standard input: a pipe's buffer on Linux.
    static let maximumInput = 65_536

    struct InputTooLong: Error, CustomStringConvertible {
        var description: String { "the app's standard input is longer than \(AppLauncher.maximumInput) bytes" }
    }

    /// Runs `executable` with `arguments` and `input` on its standard input (none: `/dev/null`),
    /// as `user` (nil: this process's user), giving it the launch folder's socket, home and
    /// certificate and the app's identity in its environment; returns its exit status and
    /// everything it printed. `onOutput`, when given, gets what it prints as it runs, in parts
    /// that end at a line's end where they can.
    static func run(
        executable: URL,
        arguments: [String],
        input: String? = nil,
        launch: LaunchFolder,
        user: AppUser?,
        bundleID: String,
        device: String,
        directory: URL,
        extraEnvironment: [String: String] = [:],
        readable: [URL] = [],
        writable: [URL] = [],
        ports: [Int] = [],
        onOutput: (@Sendable (String) async -> Void)? = nil
    ) async throws -> (Int32, String) {
        let process = Process()
        var environment = ProcessInfo.processInfo.environment
        environment[DeviceEnvironment.socket] = launch.socket.path
        environment[DeviceEnvironment.bundleID] = bundleID
        environment[DeviceEnvironment.device] = device
        environment.merge(extraEnvironment) { $1 }
        if FileManager.default.fileExists(atPath: launch.webTrust.path) {
            environment[DeviceEnvironment.webTrust] = launch.webTrust.path
        }
        // A private temporary folder, the app's home too: the only place it may write.
        let home = launch.home
        environment["TMPDIR"] = home.path
        environment["HOME"] = home.path
        // The sandbox opens the folder of the file a symbolic link names; the program is started
        // by the name it was given, which a tool that tells its role by name needs (`swift` is a
        // link to `swift-driver`).
        let program = executable.resolvingSymlinksInPath()
        if let sandbox = AppSandboxProgram.path {
            process.executableURL = sandbox
            let folders = [program.deletingLastPathComponent()] + readable
            let asUser: [String] = user.map { ["--user", String($0.id)] } ?? []
            process.arguments =
                folders.flatMap { ["--read", $0.path] } + ports.flatMap { ["--connect", String($0)] } + asUser
                + ([home] + writable).flatMap { ["--write", $0.path] } + ["--", executable.path]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment
        process.currentDirectoryURL = directory
        let output = FileManager.default.temporaryDirectory.appending(path: "kclab-app-\(UUID().uuidString).out")
        // The app's output may hold what it read from the keychain: the owner's alone.
        _ = FileManager.default.createFile(atPath: output.path, contents: nil, attributes: [.posixPermissions: 0o600])
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        if let input {
            // Written whole into the pipe before the app starts, and closed: it fits the pipe's
            // buffer, so this never waits on the app, and no write can meet an app that has ended.
            guard input.utf8.count <= Self.maximumInput else { throw InputTooLong() }
            let pipe = Pipe()
            try pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try pipe.fileHandleForWriting.close()
            process.standardInput = pipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        // The end is a mark, not a cancellation: a cancelled task could not write the last part.
        let end = Mark()
        let streaming = onOutput.map { onOutput in Task { await Self.follow(output, until: end, onOutput) } }
        let status: Int32
        do {
            status = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } catch {
            end.set()
            throw error
        }
        try? handle.close()
        // The rest of the output, then the end.
        end.set()
        await streaming?.value
        return (status, String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))
    }

    /// The largest part of the output sent at once when no line ends in it.
    static let maximumPart = 65_536

    /// Reads `file` as the app writes it, every 100 ms, and gives `onOutput` what is new up to
    /// its last line's end (or the whole of a part past ``maximumPart``); once `end` is set, gives
    /// the rest and returns.
    private static func follow(_ file: URL, until end: Mark, _ onOutput: @Sendable (String) async -> Void) async {
        guard let reader = try? FileHandle(forReadingFrom: file) else { return }
        defer { try? reader.close() }
        var pending = Data()
        while true {
            let ended = end.isSet
            pending.append(reader.availableData)
            let cut = ended || pending.count > maximumPart ? pending.endIndex : pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }
            if let cut, cut > pending.startIndex {
                await onOutput(String(decoding: pending[..<cut], as: UTF8.self))
                pending = Data(pending[cut...])
            }
            if ended { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// A flag set once by one task and read by another: a program's end, for the task following
/// its output.
final class Mark: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
