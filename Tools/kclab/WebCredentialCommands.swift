import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl

extension AppCommand {
    /// `kclab app add-web-credential … FQDN ACCOUNT (--password P | --delete)`
    struct AddWebCredential: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-web-credential",
            abstract: "Call SecAddSharedWebCredential as the app: save, update or (--delete) remove a website password.",
            discussion: """
                The device's scripted user answers any prompt (see kclab device answer). Prints \
                {"status", "name", "error", "reason"}: error is the CFError the completion handler \
                gets, null when none (a declined prompt also gives none, as on iOS).
                """
        )

        @OptionGroup var target: AppCommand.Target

        @Argument(help: "The domain, such as example.com (or example.com:8443).")
        var fqdn: String

        @Argument(help: "The account name.")
        var account: String

        @Option(help: "The password to save (it shows in ps: prefer --password-stdin).")
        var password: String?

        @Flag(help: "Read the password to save from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Remove the saved password (a NULL password).")
        var delete = false

        func validate() throws {
            guard [password != nil, passwordStdin, delete].filter({ $0 }).count == 1 else {
                throw ValidationError("give --password P or --password-stdin to save, or --delete to remove")
            }
        }

        func run() throws {
            let password = passwordStdin ? try StandardInput.line(what: "the password") : password
            let request = DeviceRequest(.addSharedWebCredential(fqdn: fqdn, account: account, password: password), app: target.app)
            try printCredentialResponse(try target.client().send(request))
        }
    }

    /// `kclab app request-web-credential … [FQDN] [--account A]`
    struct RequestWebCredential: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-web-credential",
            abstract: "Call SecRequestSharedWebCredential as the app and print the credentials it gets.",
            discussion: """
                Without FQDN the app's associated domains are searched. Before iOS 15.4 the device shows \
                a picker; from iOS 15.4 a password sheet. Prints {"status", "name", "error", \
                "credentials", "reason"}; credentials hold srvr, acct, spwd (the password) and port.
                """
        )

        @OptionGroup var target: AppCommand.Target

        @Argument(help: "The domain; omitted, the domains of the app's entitlement.")
        var fqdn: String?

        @Option(help: "The account; omitted, any.")
        var account: String?

        func run() throws {
            let request = DeviceRequest(.requestSharedWebCredential(fqdn: fqdn, account: account), app: target.app)
            try printCredentialResponse(try target.client().send(request), credentials: true)
        }
    }
}

/// Prints a web-credential or passkey request's outcome; `passkey` gives the form the
/// authenticator's answer is printed in (its fields as the device returned them, by default).
func printCredentialResponse(
    _ response: DeviceResponse,
    credentials: Bool = false,
    passkey: (PasskeyCredential) throws -> any Encodable = { $0 }
) throws {
    if let error = response.error { throw fail(error) }
    var fields: [(String, any Encodable)] = [("status", response.status ?? 0), ("name", response.name ?? "")]
    let error = response.callError.map { ["domain": AnyJSON($0.domain), "code": AnyJSON(Int64($0.code)), "message": AnyJSON($0.message)] }
    fields.append(("error", error))
    if credentials { fields.append(("credentials", AnyJSON(response.result.map(ConventionalJSON.object)))) }
    if let answer = response.passkey { fields.append(("passkey", try passkey(answer))) }
    if let reason = response.reason { fields.append(("reason", reason)) }
    say(try JSONOutput.object(fields))
}

extension DeviceCommand {
    /// `kclab device prompts`
    struct Prompts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every consent prompt the device's user was shown, with the app, domain, text and answer.",
            discussion: "Reads the device's prompt log (STATE/devices/ID/prompts.jsonl); the device need not be running."
        )

        @Option(help: "The state folder of kclab up.")
        var state = "state"

        @Option(help: "The device's ID.")
        var device: String

        @Flag(help: "Print the log as a JSON array.")
        var json = false

        func run() throws {
            let file = LabState(root: URL(fileURLWithPath: state)).promptLog(device)
            guard FileManager.default.fileExists(atPath: file.path) else {
                if !FileManager.default.fileExists(atPath: LabState(root: URL(fileURLWithPath: state)).device(device).path) {
                    throw fail("no device '\(device)' in \(state)", code: 2)
                }
                say(json ? "[]" : "no prompts shown on \(device)")
                return
            }
            let records = try PromptLog.read(file)
            if json {
                say(try JSONOutput.pretty(records, isoDates: true))
                return
            }
            for record in records {
                let time = ISO8601DateFormatter().string(from: record.time)
                say("\(time)  \(record.appName) (\(record.app))  \(record.kind)  \(record.domain)  → \(record.answer)")
                say("    \(record.title)")
                if let choices = record.choices {
                    for (index, choice) in choices.enumerated() { say("      \(index + 1). \(choice)") }
                }
                say("    buttons: \(record.buttons.joined(separator: " | "))")
            }
        }
    }

    /// `kclab device answer … ANSWER… [--default A]`
    struct Answer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Script how the device's user answers the next prompts.",
            discussion: """
                Answers are used in order, one per prompt, then the default for every later one: \
                approve, decline, pick N (the Nth account of a picker), or wait 2s then ANSWER. With no \
                answers and no --default, prints the script as it stands.
                """
        )

        @OptionGroup var target: DeviceCommand.Target

        @Argument(help: "The answers, in order (quote the ones with spaces: \"pick 2\").")
        var answers: [String] = []

        @Option(name: .customLong("default"), help: "The answer once the list is used up.")
        var defaultAnswer: String?

        func run() throws {
            let request = DeviceRequest(.setAnswers(answers.isEmpty && defaultAnswer == nil ? nil : answers, defaultAnswer: defaultAnswer))
            let response = try target.client().send(request)
            if let error = response.error { throw fail(error, code: 2) }
            for line in response.answers ?? [] { say(line) }
        }
    }
}
