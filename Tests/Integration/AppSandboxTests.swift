import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// An app reaches nothing but its device's socket (issue 24, point 8): a program run as an app
/// tries to read the lab operator's key (with which it could call keychaind's admin route and dump
/// every keychain), keychaind's state, another app's bundle and the world's signing key, to write
/// beside itself, to signal keychaind and to connect to it, and is refused each; the same script
/// run outside the sandbox does them all.
@Suite(.serialized) struct AppSandboxTests {
    typealias W = IntegrationWorlds

    @Test func anAppCannotReadTheLabsKeysOrOtherAppsFiles() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let world = lab.state.builtWorld
            let operatorKey = try #require(
                try FileManager.default.contentsOfDirectory(atPath: world.appending(path: "services/kclab").path).first { $0.hasSuffix(".key") }
            )
            let targets = [
                world.appending(path: "services/kclab/\(operatorKey)").path,
                world.appending(path: "ca/profile-signing.key").path,
                lab.state.root.appending(path: "devices/\(W.phone)/apps/com.example.AppTwo.app/embedded.mobileprovision").path,
            ]
            let folder = lab.state.root.appending(path: "escape")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = folder.appending(path: "escape.sh")
            var text = "#!/bin/sh\n"
            for target in targets {
                text += "if head -c 1 '\(target)' >/dev/null 2>&1; then echo 'READ \(target)'; else echo 'DENIED \(target)'; fi\n"
            }
            let keychaindState = lab.state.root.appending(path: "keychaind").path
            text += "if ls '\(keychaindState)' >/dev/null 2>&1; then echo 'LISTED keychaind'; else echo 'DENIED keychaind'; fi\n"
            text += "if echo x > '\(folder.appending(path: "written").path)' 2>/dev/null; then echo 'WROTE'; else echo 'DENIED write'; fi\n"
            text += "if echo x > \"$TMPDIR/own\"; then echo 'OWN TEMP'; fi\n"
            // keychaind's HTTPS port: reachable from outside (a TLS answer, curl's 35 or 60), not from inside (7).
            let endpoint = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.state.keychaindEndpoint)) as? [String: Any]
            let url = try #require(endpoint?["url"] as? String)
            text += "curl -s -o /dev/null --max-time 5 '\(url)/'; echo \"TCP $?\"\n"
            text += "grep CapEff /proc/self/status\n"
            let keychaind = try #require(LabRecord.read(lab.state)?.processes.first { $0.name == "keychaind" }?.pid)
            text += "if kill -0 \(keychaind) 2>/dev/null; then echo 'SIGNALED keychaind'; else echo 'DENIED signal'; fi\n"
            text += "echo \"UID $(id -u)\"\n"
            try Data(text.utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

            // Outside the sandbox the script reads everything: the paths are right.
            let outside = try runTool("/bin/sh", [script.path])
            #expect(outside.stdout.components(separatedBy: "READ ").count == targets.count + 1, "\(outside.stdout)")
            #expect(outside.stdout.contains("SIGNALED keychaind"), "\(outside.stdout)")
            #expect(!outside.stdout.contains("TCP 7\n") && outside.stdout.contains("TCP "), "\(outside.stdout)")

            // Run from the caller's folder, the app keeps the operator's user (it is handed that
            // folder); run from inside the lab, it gets the app's folder and, when the lab runs
            // as root, a user of its own. Either way it reaches nothing of the lab's.
            let exec = "app exec --state '\(lab.state.root.path)' --device \(W.phone) --app com.example.AppOne -- '\(script.path)'"
            var users: [String] = []
            for caller in [FileManager.default.currentDirectoryPath, lab.state.root.appending(path: "devices").path] {
                let inside = try runTool("/bin/sh", ["-c", "cd '\(caller)' && '\(WorldTestSupport.kclab.path)' \(exec)"])
                #expect(inside.status == 0, "\(inside.stderr)")
                for target in targets { #expect(inside.stdout.contains("DENIED \(target)"), "\(inside.stdout)") }
                #expect(inside.stdout.contains("DENIED keychaind"), "\(inside.stdout)")
                #expect(inside.stdout.contains("DENIED write"), "its own folder is read-only: \(inside.stdout)")
                #expect(inside.stdout.contains("OWN TEMP"), "its private temporary folder is writable: \(inside.stdout)")
                #expect(!inside.stdout.contains("READ "), "\(inside.stdout)")
                #expect(inside.stdout.contains("DENIED signal"), "it cannot signal (kill) the lab's processes: \(inside.stdout)")
                #expect(inside.stdout.contains("TCP 7\n"), "it cannot connect to keychaind: \(inside.stdout)")
                #expect(inside.stdout.contains("CapEff:\t0000000000000000"), "no capability, even when the lab runs as root: \(inside.stdout)")
                users.append(inside.stdout.split(separator: "\n").first { $0.hasPrefix("UID ") }.map(String.init) ?? "no UID line")
            }
            #expect(users[0] == "UID \(getuid())", "handed the caller's folder, the operator's user: \(users)")
            if getuid() == 0 {
                let own = users[1].dropFirst(4)
                #expect((UInt32(own) ?? 0) >= 1_500_000_000, "as root, a user of the app's own: \(users)")
            } else {
                #expect(users[1] == "UID \(getuid())", "not root: no other user to give, Landlock alone: \(users)")
            }
        }
    }

    /// As root, each app has a user of its own on each device, the same at every launch: App One
    /// twice, then App Two, from the app's own folder (run inside the lab).
    @Test func asRootEachAppRunsAsAUserOfItsOwn() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let devices = lab.state.root.appending(path: "devices").path
            func user(_ app: String) throws -> String {
                let exec = "app exec --state '\(lab.state.root.path)' --device \(W.phone) --app \(app) -- /usr/bin/id -u"
                let answer = try runTool("/bin/sh", ["-c", "cd '\(devices)' && '\(WorldTestSupport.kclab.path)' \(exec)"])
                #expect(answer.status == 0, "\(answer.stderr)")
                return answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let first = try user("com.example.AppOne")
            let again = try user("com.example.AppOne")
            let other = try user("com.example.AppTwo")
            #expect(first == again, "one user per app and device: \(first), \(again)")
            if getuid() == 0 {
                #expect(first != "0" && other != "0" && first != other, "App One \(first), App Two \(other)")
            } else {
                #expect(first == "\(getuid())" && other == first, "the operator's user: \(first), \(other)")
            }
        }
    }

    /// `kclab app exec` runs the program in the caller's folder, which it may write (a package's
    /// `swift test` builds there), but never in a folder holding the lab's state: kclab falls back
    /// to the app's own folder with a note, and the device refuses such a folder outright.
    @Test func execRunsInTheCallersFolderButNeverTheLabs() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            try await withTemporaryDirectory { work in
                let script = work.appending(path: "where.sh")
                try Data("#!/bin/sh\npwd\nif echo x > made-here 2>/dev/null; then echo WROTE; else echo 'DENIED write'; fi\n".utf8).write(to: script)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
                let exec = "app exec --state '\(lab.state.root.path)' --device \(W.phone) --app com.example.AppOne -- '\(script.path)'"
                let here = try runTool("/bin/sh", ["-c", "cd '\(work.path)' && '\(WorldTestSupport.kclab.path)' \(exec)"])
                #expect(here.status == 0, "\(here.stdout)\(here.stderr)")
                #expect(here.stdout.contains(work.resolvingSymlinksInPath().path) && here.stdout.contains("WROTE"), "\(here.stdout)")
                #expect(FileManager.default.fileExists(atPath: work.appending(path: "made-here").path))

                // From inside the lab's state folder: the app's own folder, read-only, and a note.
                let inside = lab.state.root.appending(path: "devices")
                let fallback = try runTool("/bin/sh", ["-c", "cd '\(inside.path)' && '\(WorldTestSupport.kclab.path)' \(exec)"])
                #expect(fallback.status == 0 && fallback.stderr.contains("running in the app's folder"), "\(fallback.stderr)")
                #expect(fallback.stdout.contains("com.example.AppOne.app") && fallback.stdout.contains("DENIED write"), "\(fallback.stdout)")

                // Asked directly, the device refuses the lab's folder.
                let intoTheLab = DeviceRequest.Action.exec(program: script.path, arguments: [], workingDirectory: lab.state.root.path)
                let request = DeviceRequest(intoTheLab, app: "com.example.AppOne")
                let refused = try DeviceClient(state: lab.state, device: W.phone).send(request)
                #expect(refused.error?.contains("lab's state") == true, "\(String(describing: refused.error))")
            }
        }
    }

    /// `--read DIR` lets the program read one more folder (a package's path dependency), never
    /// write it, and never the lab's state.
    @Test func aFolderToReadIsReadOnlyAndNeverTheLabs() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            try await withTemporaryDirectory { work in
                try await withTemporaryDirectory { dependency in
                    try Data("DEP\n".utf8).write(to: dependency.appending(path: "Package.swift"))
                    let script = work.appending(path: "read.sh")
                    let text =
                        "#!/bin/sh\ncat '\(dependency.path)/Package.swift' 2>/dev/null || echo 'DENIED read'\n"
                        + "if echo x > '\(dependency.path)/made' 2>/dev/null; then echo WROTE; else echo 'DENIED write'; fi\n"
                    try Data(text.utf8).write(to: script)
                    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
                    let exec = "app exec --state '\(lab.state.root.path)' --device \(W.phone) --app com.example.AppOne"
                    let without = try runTool("/bin/sh", ["-c", "cd '\(work.path)' && '\(WorldTestSupport.kclab.path)' \(exec) -- '\(script.path)'"])
                    #expect(without.stdout.contains("DENIED read") && without.stdout.contains("DENIED write"), "\(without.stdout)\(without.stderr)")
                    let with = try runTool(
                        "/bin/sh",
                        ["-c", "cd '\(work.path)' && '\(WorldTestSupport.kclab.path)' \(exec) --read '\(dependency.path)' -- '\(script.path)'"]
                    )
                    #expect(with.status == 0, "\(with.stderr)")
                    #expect(with.stdout.contains("DEP") && with.stdout.contains("DENIED write"), "read, not write: \(with.stdout)")
                    #expect(!FileManager.default.fileExists(atPath: dependency.appending(path: "made").path))

                    let intoTheLab = DeviceRequest.Action.exec(program: script.path, arguments: [], readable: [lab.state.root.path])
                    let refused = try DeviceClient(state: lab.state, device: W.phone).send(DeviceRequest(intoTheLab, app: "com.example.AppOne"))
                    #expect(
                        refused.error?.contains("the folder to read \(lab.state.root.path) holds or is inside the lab's state") == true,
                        "\(String(describing: refused.error))"
                    )
                }
            }
        }
    }
}
