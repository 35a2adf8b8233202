import AppIdentity
import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import WorldFile

/// `kclab app …`: act as an installed app.
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Make SecItem and shared-web-credential calls as an app, run an app, run a program as an app, or update an app.",
        subcommands: [
            Call.self, AddWebCredential.self, RequestWebCredential.self, Passkey.self, Run.self, Exec.self, Update.self, Delete.self, Install.self,
        ]
    )

    struct Target: ParsableArguments {
        @Option(help: "The state folder of kclab up.")
        var state = "state"

        @Option(help: "The device's ID.", completion: LabCompletion.devices)
        var device: String

        @Option(
            name: .customLong("app"),
            help: "The app's bundle ID; `browser` names the world's browser (com.apple.mobilesafari).",
            completion: LabCompletion.apps
        )
        var named: String

        /// The bundle ID asked for, with `browser` standing for the world's browser.
        var app: String {
            named == "browser" ? World.browserBundleID.rawValue : named
        }

        func client() throws -> DeviceClient {
            try deviceClient(state: state, device: device)
        }
    }
}

extension AppCommand {
    /// `kclab app call … add|copy|update|delete JSON [JSON]`
    struct Call: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make one SecItem call as the app and print {\"status\", \"name\", \"result\"}.",
            discussion: """
                Keys and values are Apple's constant strings ("class": "genp", "acct", "r_Data": true, \
                "m_Limit": "m_LimitAll") or the constants' names ("kSecClass": "kSecClassGenericPassword"); \
                v_Data, gena and v_PersistentRef are base64; dates are ISO 8601. \
                update takes the query and then attributesToUpdate. The exit status is 0 whenever the \
                call was made, whatever its OSStatus.
                """
        )

        @OptionGroup var target: Target

        @Argument(help: "add, copy, update or delete.")
        var operation: CallArgument

        @Argument(help: "The query (for add: the attributes), as JSON; - reads it from standard input (keeps v_Data out of ps).")
        var query: String

        @Argument(help: "For update: attributesToUpdate, as JSON.")
        var attributesToUpdate: String?

        func validate() throws {
            if operation.call == .update, attributesToUpdate == nil {
                throw ValidationError("update needs two JSON objects: the query and attributesToUpdate")
            }
            if operation.call != .update, attributesToUpdate != nil {
                throw ValidationError("only update takes a second JSON object")
            }
            if query == "-", attributesToUpdate == "-" { throw ValidationError("only one of the JSON objects can come from standard input") }
        }

        func run() throws {
            let parsedQuery: [String: SecValue]
            let parsedChanges: [String: SecValue]?
            do {
                parsedQuery = try ConventionalJSON.dictionary(from: query == "-" ? try StandardInput.read(what: "the query") : Data(query.utf8))
                parsedChanges = try attributesToUpdate.map { text in
                    try ConventionalJSON.dictionary(from: text == "-" ? try StandardInput.read(what: "attributesToUpdate") : Data(text.utf8))
                }
            } catch {
                throw fail("\(error)", code: 2)
            }
            let response = try target.client().send(
                DeviceRequest(.secItem(operation.call, query: parsedQuery, attributesToUpdate: parsedChanges), app: target.app)
            )
            if let error = response.error { throw fail(error) }
            var fields: [(String, any Encodable)] = [("status", response.status ?? 0), ("name", response.name ?? "")]
            fields.append(("result", AnyJSON(response.result.map(ConventionalJSON.object))))
            if let reason = response.reason { fields.append(("reason", reason)) }
            say(try JSONOutput.object(fields))
            if response.status == SecStatus.interactionNotAllowed.code {
                warn("hint: \(target.device) is locked; kclab device unlock --state \(target.state) --device \(target.device)")
            }
        }
    }

    /// `kclab app run … -- ARGS`
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Launch the app on its device with arguments, print its output, exit with its status."
        )

        @OptionGroup var target: Target

        @Flag(help: "Give the app this command's standard input (a password passed as - stays out of ps).")
        var stdin = false

        @Argument(parsing: .postTerminator, help: "The app's arguments, after --.")
        var arguments: [String] = []

        func run() throws {
            let input = stdin ? String(decoding: try StandardInput.read(what: "the app's input", limit: 65_536), as: UTF8.self) : nil
            try launch(target, DeviceRequest(.run(arguments: arguments, input: input), app: target.app))
        }
    }

    /// `kclab app exec … -- COMMAND…`
    struct Exec: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run any program as the app (apps signed with get-task-allow only), print its output, exit with its status.",
            discussion: """
                Use it to run a keychain wrapper's own test suite against KeychainLab. The program runs in \
                this command's working directory and may write there (so `kclab app exec … -- swift test` \
                finds Package.swift and builds), unless that folder holds the lab's own state: then run \
                the lab with --state outside it.
                """
        )

        @OptionGroup var target: Target

        @Flag(help: "Give the program this command's standard input.")
        var stdin = false

        @Option(
            name: .customLong("read"),
            help: "A folder the program may read besides this one, such as a path dependency's (repeatable; never the lab's state)."
        )
        var readable: [String] = []

        @Argument(parsing: .postTerminator, help: "The program and its arguments, after --.")
        var command: [String] = []

        func validate() throws {
            if command.isEmpty { throw ValidationError("give the program to run after --") }
        }

        func run() throws {
            let resolved = AppCommand.resolvedExec(command)
            let input = stdin ? String(decoding: try StandardInput.read(what: "the program's input", limit: 65_536), as: UTF8.self) : nil
            guard let program = resolved.first else { throw fail("exec needs a program", code: 2) }
            // The caller's folder, unless it holds the lab's state: then the app's own, as before.
            let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let lab = LabState(root: URL(fileURLWithPath: target.state))
            var folder: String? = here.path
            if let refusal = ExecFolder.refusal(here, protecting: [lab.root]) {
                warn("note: running in the app's folder, not here: \(refusal)")
                folder = nil
            }
            let exec = DeviceRequest.Action.exec(
                program: program,
                arguments: Array(resolved.dropFirst()),
                input: input,
                workingDirectory: folder,
                readable: readable.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            )
            try launch(target, DeviceRequest(exec, app: target.app))
        }
    }
}

extension AppCommand {
    /// `command` with its program's relative path made absolute: the device starts it from its own
    /// folder, where a relative path means the caller's. A name without a slash stays for the
    /// device to find on its PATH.
    static func resolvedExec(_ command: [String]) -> [String] {
        var resolved = command
        if let program = resolved.first, program.contains("/"), !program.hasPrefix("/") {
            resolved[0] = URL(fileURLWithPath: program).standardizedFileURL.path
        }
        return resolved
    }

    /// `kclab app update …`
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install the app's later version (its world entry's update:) over it, and print the app as now installed.",
            discussion: """
                The keychain is kept, as an App Store update keeps it; the app's access groups are \
                whatever the new signature says. An update that changes the app ID prefix loses sight \
                of the items the app stored before (seed 004). The update is verified like any install \
                and refused with its reasons. Restarting the lab installs the world's first versions again.
                """
        )

        @OptionGroup var target: Target

        func run() throws {
            let response = try target.client().send(DeviceRequest(.installUpdate, app: target.app))
            if let error = response.error { throw fail(error) }
            guard let app = response.app else { throw fail("the device did not describe the updated app") }
            say(
                try JSONOutput.object([
                    ("bundleID", app.bundleID), ("appID", app.appIDText), ("teamID", app.teamID?.rawValue ?? ""),
                    ("accessGroups", app.accessGroups.map(\.rawValue)),
                ])
            )
        }
    }
}

/// The control connection to a running device of a state folder; a missing one is a usage error.
func deviceClient(state: String, device: String) throws -> DeviceClient {
    do {
        return try DeviceClient(state: LabState(root: URL(fileURLWithPath: state)), device: device)
    } catch {
        throw fail("\(error)", code: 2)
    }
}

private func launch(_ target: AppCommand.Target, _ request: DeviceRequest) throws {
    // The program's output as it prints it, not when it ends.
    let response = try target.client().send(request) { FileHandle.standardOutput.write(Data($0.utf8)) }
    if let error = response.error { throw fail(error) }
    if let output = response.output { FileHandle.standardOutput.write(Data(output.utf8)) }
    let status = response.exitCode ?? 1
    if status != 0 { throw ExitCode(status) }
}

/// Any JSON value, for printing results of any shape.
struct AnyJSON: Encodable {
    let value: Any?

    init(_ value: Any?) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case nil: try container.encodeNil()
        case let text as String: try container.encode(text)
        case let flag as Bool: try container.encode(flag)
        case let number as Int64: try container.encode(number)
        case let number as Double: try container.encode(number)
        case let array as [Any]: try container.encode(array.map(AnyJSON.init))
        case let dictionary as [String: Any]: try container.encode(dictionary.mapValues(AnyJSON.init))
        default: try container.encode("\(value!)")
        }
    }
}

/// `kclab app call`'s first argument: a SecItem call by its route name, or `copy` for copy-matching.
struct CallArgument: ExpressibleByArgument {
    let call: SecItemCall

    init?(argument: String) {
        guard let call = SecItemCall(rawValue: argument == "copy" ? SecItemCall.copyMatching.rawValue : argument) else { return nil }
        self.call = call
    }

    static var allValueStrings: [String] { ["add", "copy"] + SecItemCall.allCases.dropFirst().map(\.rawValue) }
}
