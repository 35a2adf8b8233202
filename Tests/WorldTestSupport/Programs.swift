public import Foundation

/// The result of running a program.
public struct ProgramResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs `executable` with `arguments` and waits for it, capturing both outputs.
public func run(_ executable: URL, _ arguments: [String], input: Data? = nil) throws -> ProgramResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let folder = FileManager.default.temporaryDirectory
    let outURL = folder.appending(path: "kclab-out-\(UUID().uuidString)")
    let errURL = folder.appending(path: "kclab-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    // Files rather than pipes: a chatty program can never block on a full pipe.
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    if let input {
        let inURL = folder.appending(path: "kclab-in-\(UUID().uuidString)")
        try input.write(to: inURL)
        defer { try? FileManager.default.removeItem(at: inURL) }
        process.standardInput = try FileHandle(forReadingFrom: inURL)
    }
    try process.run()
    process.waitUntilExit()
    return ProgramResult(
        status: process.terminationStatus,
        stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
        stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
    )
}

/// Runs a program found on `PATH`, such as `openssl`.
public func runTool(_ name: String, _ arguments: [String]) throws -> ProgramResult {
    try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
}

/// The folder holding the package's built products: beside the test bundle, or `KCLAB_BIN_DIR`.
public var productsDirectory: URL {
    if let override = ProcessInfo.processInfo.environment["KCLAB_BIN_DIR"] {
        return URL(fileURLWithPath: override)
    }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Linux the tests run from NAME.xctest inside the products folder.
    if url.pathExtension == "xctest" { url = url.deletingLastPathComponent() }
    return url
}

/// The built `kclab`.
public var kclab: URL {
    productsDirectory.appending(path: "kclab")
}
