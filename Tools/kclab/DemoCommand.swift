import AppIdentifiers
import ArgumentParser
import AssetLinks
import AssociationAPI
import DeviceProtocol
import Foundation
import LabControl
import SiteAssociation
import SiteCheck

/// `kclab demo`: brings the demo world up, plays the seeds' stories, and brings it down.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Bring the demo world up, play the seeds' sharing stories with an explanation of each, and bring it down."
    )

    @Option(help: "The world file.")
    var world = "Tools/worlds/demo.yaml"

    @Option(help: "The state folder.")
    var state = ".demo"

    @Option(
        help: ArgumentHelp(
            "Play against a lab that is already running with keychaind at this URL (the compose lab), instead of bringing one up and down.",
            valueName: "keychaind-url"
        )
    )
    var attach: String?

    @Option(
        help:
            "Also write the walkthrough as Markdown to this file: each story's commands as a reader types them, their output, and why (docs/walkthrough.md)."
    )
    var markdown: String?

    @Flag(
        help:
            "Leave the lab running when the stories end, to look around in the console and with kclab (stop it with kclab down --state STATE)."
    )
    var keep = false

    func run() async throws {
        let lab = LabState(root: URL(fileURLWithPath: state))
        if let attach {
            let summary: Lab.Summary
            do {
                summary = try await Lab.attach(world: URL(fileURLWithPath: world), state: lab, keychaind: attach)
            } catch {
                throw fail("\(error)")
            }
            do {
                try await play(summary, lab)
            } catch {
                throw fail("\(error)")
            }
            return
        }
        _ = await Lab.down(state: lab)
        // A demo starts from an empty keychain and no associations.
        try? FileManager.default.removeItem(at: lab.keychaind)
        try? FileManager.default.removeItem(at: lab.associationd)
        try? FileManager.default.removeItem(at: lab.website)
        try? FileManager.default.removeItem(at: lab.webcredentiald)
        for device in (try? FileManager.default.contentsOfDirectory(atPath: lab.root.appending(path: "devices").path)) ?? [] {
            try? FileManager.default.removeItem(at: lab.promptLog(device))
        }
        let summary: Lab.Summary
        do {
            summary = try await Lab.up(world: URL(fileURLWithPath: world), state: lab)
        } catch {
            throw fail("\(error)")
        }
        defer { say("(the lab keeps its logs in \(lab.logs.path))") }
        if let console = summary.console {
            say("Console: \(console)")
            say("    open it in a browser on this machine to watch each decision as the stories play (docs/console.md)\n")
        }
        do {
            try await play(summary, lab)
        } catch {
            _ = await Lab.down(state: lab)
            throw fail("\(error)")
        }
        if keep {
            say("\nThe demo lab keeps running\(summary.console.map { ": its console is at \($0)" } ?? "").")
            say("Stop it with: kclab down --state \(state)")
            return
        }
        _ = await Lab.down(state: lab)
        say("\nThe demo world is down again.")
    }

    private func play(_ summary: Lab.Summary, _ lab: LabState) async throws {
        let walkthrough = Walkthrough()
        try await play(summary, lab, walkthrough)
        if let markdown {
            try Data(walkthrough.text.trimmingCharacters(in: .newlines).appending("\n").utf8).write(to: URL(fileURLWithPath: markdown))
        }
    }

    private func play(_ summary: Lab.Summary, _ lab: LabState, _ walkthrough: Walkthrough) async throws {
        walkthrough.devices(summary.devices)
        say("KeychainLab: keychaind at \(summary.keychaind), \(summary.devices.count) devices.")
        say("Every app's access groups come from its verified signature, in Apple's order:")
        say("keychain-access-groups, then the application identifier, then application groups.\n")
        for device in summary.devices {
            say("\(device.id) (\(device.platform) \(device.osVersion), iCloud \(device.iCloudAccount ?? "none"))")
            for app in device.installed {
                say("  \(app.bundleID): \(app.accessGroups.map(\.rawValue).joined(separator: ", "))")
            }
            for (bundleID, reasons) in device.refused.sorted(by: { $0.key < $1.key }) {
                say("  \(bundleID): REFUSED at install: \(reasons.joined(separator: "; "))")
            }
        }
        for (number, story) in DemoStory.seeds.enumerated() {
            try await tell(story, number: number + 1, lab, walkthrough)
        }
        try await associations(lab, number: DemoStory.seeds.count + 1, walkthrough)
        var number = DemoStory.seeds.count + 2
        let stories =
            (summary.websites != nil ? DemoStory.sharedCredentials : []) + DemoStory.mac
            + (summary.websites != nil ? DemoStory.passkeys + DemoStory.android : []) + DemoStory.iCloudKeychain
        let devices = Set(summary.devices.map(\.id))
        for story in stories where story.steps.allSatisfy({ $0.app.isEmpty || devices.contains($0.device) }) {
            try await tell(story, number: number, lab, walkthrough)
            number += 1
        }
    }

    /// Plays one story's steps, with the prompts each one showed, then says why.
    private func tell(_ story: DemoStory, number: Int, _ lab: LabState, _ walkthrough: Walkthrough) async throws {
        say("\n\(number). \(story.title)")
        walkthrough.story(number, story.title)
        for step in story.steps {
            if case .kclab(let arguments) = step.action {
                let lines = try await kclab(arguments)
                for line in lines { say("   \(line)") }
                walkthrough.step(Walkthrough.command(step), output: lines)
                continue
            }
            let client = try DeviceClient(state: lab, device: step.device)
            var lines: [String] = []
            switch step.action {
            case .update:
                let response = try client.send(DeviceRequest(.installUpdate, app: step.app))
                let outcome = response.app.map { "installed the update of \($0.bundleID): app ID now \($0.appIDText)" }
                lines.append(outcome ?? response.error ?? "no answer")
            case .answer(let answers):
                _ = try client.send(DeviceRequest(.setAnswers(answers)))
                lines.append("the user will answer: \(answers.joined(separator: ", "))")
            case .kclab: break
            case .run(let arguments):
                let shown = (try? PromptLog.read(lab.promptLog(step.device)))?.count ?? 0
                let response = try client.send(DeviceRequest(.run(arguments: arguments, input: step.input.map { $0 + "\n" }), app: step.app))
                lines.append((response.output ?? response.error ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
                for prompt in ((try? PromptLog.read(lab.promptLog(step.device))) ?? []).dropFirst(shown) {
                    // A Mac's keychain prompt has three buttons; the other prompts list their buttons.
                    let buttons = prompt.kind == "keychain-access" ? prompt.choices ?? prompt.buttons : prompt.buttons
                    lines.append("PROMPT \(prompt.title) [\(buttons.joined(separator: " | "))] → the user: \(prompt.answer)")
                }
            }
            for line in lines {
                say("   [\(step.device)] \(line.replacingOccurrences(of: "\n", with: "\n   "))")
            }
            walkthrough.step(Walkthrough.command(step), output: lines)
        }
        say("   Why: " + story.explanation.replacingOccurrences(of: "\n", with: "\n        "))
        walkthrough.why(story.explanation)
    }

    /// What a kclab step prints, from the command's own parser and report: its `--state .demo`
    /// is this demo's state folder, and its world (unless it names one) the demo's world file.
    private func kclab(_ arguments: [String]) async throws -> [String] {
        let actual = arguments.indices.map { arguments[$0] == ".demo" && $0 > 0 && arguments[$0 - 1] == "--state" ? state : arguments[$0] }
        switch try Kclab.parseAsRoot(actual) {
        case let command as AssetLinksCommand.Check: return try await command.checked().lines
        case let command as SiteCommand.Check: return try await command.checked().lines
        case var command as SyncCommand.Wait:
            // The compose lab records no world file: the demo's own is the lab's.
            command.lab.world = command.lab.world ?? world
            return try await command.settled()
        case let command as DeviceCommand.Offline: return [try command.target.sync(.offline)]
        case let command as DeviceCommand.Online: return [try command.target.sync(.online)]
        default: throw fail("the demo cannot play kclab \(arguments.joined(separator: " "))")
        }
    }

    /// Seed 002's first half: what associationd decided for the apps' associated domains.
    private func associations(_ lab: LabState, number: Int, _ walkthrough: Walkthrough) async throws {
        guard FileManager.default.fileExists(atPath: lab.associationdEndpoint.path) else { return }
        let names = AssociationsCommand.deviceNames(lab, world: world)
        let options = try LabOptions.parse(["--state", state, "--world", world])
        let records = try await AssociationsCommand.records(options).filter { names[$0.device] == "iphone-alice" }
        guard !records.isEmpty else { return }
        let title = "Seed 002: which sites name which apps (associationd, through the Apple-like CDN)"
        say("\n\(number). \(title)")
        walkthrough.story(number, title)
        let lines = records.map { "\($0.appID) \($0.entry): \($0.state.rawValue) (\($0.reason))" }
        for line in lines { say("   [iphone-alice] \(line)") }
        walkthrough.step(["kclab", "associations", "--state", ".demo"], output: lines.map { "iphone-alice  " + $0 })
        let why = """
            example.com's apple-app-site-association lists DemoApp and DemoAdminApp under webcredentials;
            www.example.com's lists DemoApp only, and support.example.com's is signed with its TLS certificate.
            iOS 17 devices read each file through the CDN; `kclab associations --state DIR` lists them all.
            """
        say("   Why: " + why.replacingOccurrences(of: "\n", with: "\n        "))
        walkthrough.why(why)
    }
}
