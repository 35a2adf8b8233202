import Foundation
import LabControl
import Testing
import WorldTestSupport

/// Operating a running lab with kclab: status, and programs run as an app.
@Suite(.serialized) struct OperatingTests {
    typealias W = IntegrationWorlds

    @Test func statusSaysWhatRunsAndFailsWhenSomethingStopped() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let healthy = try lab.kclab(["status", "--json"])
            #expect(healthy.status == 0, "\(healthy.stdout)\(healthy.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(healthy.stdout.utf8)) as? [String: Any])
            let components = try #require(report["components"] as? [[String: Any]])
            #expect(components.contains { $0["name"] as? String == "keychaind" && $0["running"] as? Bool == true })
            #expect(components.contains { $0["name"] as? String == "device \(W.phone)" && $0["platform"] as? String == "ios" })

            let record = try #require(LabRecord.read(lab.state))
            let pad = try #require(record.processes.first { $0.name == "device \(W.oldPad)" })
            await LabProcesses.stop(pad.pid)
            let degraded = try lab.kclab(["status"])
            #expect(degraded.status == 1 && degraded.stdout.contains("device \(W.oldPad): STOPPED"), "\(degraded.stdout)")
        }
    }

    /// `kclab app exec` runs a relative program path from the caller's folder, not the device's.
    @Test func execResolvesARelativeProgramFromTheCaller() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let folder = lab.state.root.appending(path: "caller/bin")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = folder.appending(path: "hello.sh")
            try Data("#!/bin/sh\necho hello from $KEYCHAINLAB_APP\n".utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
            let process = Process()
            process.executableURL = kclab
            process.arguments = [
                "app", "exec", "--state", lab.state.root.path, "--device", W.phone, "--app", "com.example.AppOne", "--", "bin/hello.sh",
            ]
            process.currentDirectoryURL = lab.state.root.appending(path: "caller")
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0 && text.contains("hello from com.example.AppOne"), "\(text)")
        }
    }

    @Test func kclabSaysItsVersion() throws {
        let result = try run(kclab, ["--version"])
        #expect(result.status == 0 && result.stdout.hasPrefix("kclab "), "\(result.stdout)")
    }
}
