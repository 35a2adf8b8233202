import DeviceProtocol
import Foundation
import KeychainTypes
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
            // A device killed outright leaves its socket behind: the error says to restart it.
            let phone = try #require(record.processes.first { $0.name == "device \(W.phone)" })
            kill(phone.pid, SIGKILL)
            while kill(phone.pid, 0) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            let crashed = try lab.kclab(["app", "call", "--device", W.phone, "--app", "com.example.AppOne", "copy", #"{"class": "genp"}"#])
            #expect(crashed.status != 0 && crashed.stderr.contains("kclab restart"), "\(crashed.stderr)")
        }
    }

    /// Errors say what exists and what to do next.
    @Test func errorsNameWhatExistsAndWhatToDo() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            func call(device: String = W.phone, app: String = "com.example.AppOne", _ query: String) throws -> ProgramResult {
                try lab.kclab(["app", "call", "--device", device, "--app", app, "copy", query])
            }
            let device = try call(device: "tablet", #"{"class": "genp"}"#)
            #expect(
                device.status == 2 && device.stderr.contains("no device tablet runs") && device.stderr.contains("mac, old-pad, phone"),
                "\(device.stderr)"
            )
            let app = try call(app: "com.example.Nope", #"{"class": "genp"}"#)
            #expect(app.status == 1 && app.stderr.contains("installed: com.example.AppOne, com.example.AppOne.Suite"), "\(app.stderr)")
            let thief = try call(app: "com.other.Thief", #"{"class": "genp"}"#)
            #expect(
                thief.status == 1 && thief.stderr.contains("was refused at install on phone") && thief.stderr.contains("entitlement"),
                "\(thief.stderr)"
            )
            let comma = try call("{\"class\": \"genp\",\n}")
            #expect(comma.status == 2 && comma.stderr.contains("2:1: a trailing comma before '}'"), "\(comma.stderr)")

            _ = try lab.status(
                .add,
                on: W.phone,
                as: "com.example.AppOne",
                ["class": .string("genp"), "acct": .string("l"), "v_Data": .data(Data("x".utf8))]
            )
            #expect(try lab.kclab(["device", "lock", "--device", W.phone]).status == 0)
            let locked = try call(#"{"class": "genp", "acct": "l", "r_Data": true}"#)
            #expect(locked.stdout.contains("-25308") && locked.stderr.contains("kclab device unlock"), "\(locked.stderr)")
            let help = try lab.kclab(["--help"])
            #expect(help.stdout.contains("Exit status, for every command: 0 success; 1"))
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

    /// One daemon or device restarted on its own: the others still reach it, nothing is lost.
    @Test func restartOneComponentAndReadItsLogs() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            #expect(
                try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("kept"), "v_Data": .data(Data("k".utf8))]) == 0
            )
            let keychaind = try lab.kclab(["restart", "keychaind"])
            #expect(keychaind.status == 0 && keychaind.stdout.contains("restarted keychaind"), "\(keychaind.stdout)\(keychaind.stderr)")
            // keychaind still knows each device's last report: the operator may ask about a device
            // that has not called since.
            let explained = try lab.kclab(["explain", "item", "--device", W.phone, "--app", app, #"{"class": "genp"}"#])
            #expect(explained.status == 0 && explained.stdout.contains("errSecSuccess"), "\(explained.stdout)\(explained.stderr)")
            let kept = try lab.call(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("kept"), "r_Data": .bool(true)])
            #expect(kept.result == .data(Data("k".utf8)), "the device reaches keychaind on its port again")
            let device = try lab.kclab(["restart", W.phone])
            #expect(device.status == 0, "\(device.stderr)")
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("kept")]) == 0)
            #expect(try lab.kclab(["status"]).status == 0, "every component runs, and the record knows the new PIDs")
            let unknown = try lab.kclab(["restart", "nonesuch"])
            #expect(unknown.status == 1 && unknown.stderr.contains("no nonesuch in this lab"))

            let one = try lab.kclab(["logs", "keychaind", "--lines", "50"])
            #expect(one.status == 0 && one.stdout.contains("keychaind listening"), "\(one.stdout)")
            let all = try lab.kclab(["logs", "--lines", "2"])
            #expect(all.stdout.contains("keychaind | ") && all.stdout.contains("device-\(W.phone) | "), "\(all.stdout)")
        }
    }

    /// kclab up says what it is doing while it builds and starts, on standard error.
    @Test func upShowsProgress() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "world.yaml")
            try Data(W.family.utf8).write(to: world)
            let state = folder.appending(path: "state").path
            defer { _ = try? run(kclab, ["down", "--state", state]) }
            let up = try run(kclab, ["up", "--world", world.path, "--state", state])
            #expect(up.status == 0, "\(up.stderr)")
            for stage in ["… building the world", "… starting keychaind", "… starting 3 devices", "… waiting for phone"] {
                #expect(up.stderr.contains(stage), "\(stage) missing from:\n\(up.stderr)")
            }
        }
    }

    /// Shell completion offers the lab's device IDs, and the apps of the device typed.
    @Test func completionNamesTheLabsDevicesAndApps() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let state = lab.state.root.path
            let devices = try run(
                kclab,
                ["---completion", "app", "call", "--", "--device", "6", "0", "kclab", "app", "call", "--state", state, "--device", ""]
            )
            #expect(Set(devices.stdout.split(separator: "\n").map(String.init)) == [W.phone, W.oldPad, W.mac], "\(devices.stdout)\(devices.stderr)")
            let apps = try run(
                kclab,
                [
                    "---completion", "app", "call", "--", "--app", "8", "0", "kclab", "app", "call", "--state", state, "--device", W.oldPad, "--app",
                    "com.ex",
                ]
            )
            #expect(apps.stdout.split(separator: "\n").map(String.init) == ["com.example.AppOne"], "\(apps.stdout)")
        }
    }

    @Test func kclabSaysItsVersion() throws {
        let result = try run(kclab, ["--version"])
        // The repository's VERSION file names the release (and its tags, v0.10.0).
        let version = try String(contentsOfFile: "VERSION", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.status == 0 && result.stdout == "kclab \(version)\n", "\(result.stdout) is not VERSION's \(version)")
    }
}
