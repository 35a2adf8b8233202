import DeviceProtocol
import Foundation

/// Starts app processes with the device's environment and waits for them.
enum AppLauncher {
    /// Runs `executable` with `arguments`, giving it `socket` and the app's identity in its
    /// environment; returns its exit status and everything it printed.
    static func run(
        executable: URL,
        arguments: [String],
        socket: URL,
        bundleID: String,
        device: String,
        directory: URL,
        extraEnvironment: [String: String] = [:]
    ) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[DeviceEnvironment.socket] = socket.path
        environment[DeviceEnvironment.bundleID] = bundleID
        environment[DeviceEnvironment.device] = device
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        process.currentDirectoryURL = directory
        let output = FileManager.default.temporaryDirectory.appending(path: "kclab-app-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try? handle.close()
        return (status, String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))
    }
}
