import AppIdentity
import ArgumentParser
import DeviceProtocol
import Foundation
import LabControl
import WebCredentials
import WorldFile

extension ExplainCommand {
    /// `kclab explain prompt --device D`
    struct Prompt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Why each shared-web-credential prompt a device showed was shown, by the device's OS release.",
            discussion: "From the rules webcredentiald applies (BrokerBehaviour), and the device's prompt log."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "The device's ID.")
        var device: String

        @Option(help: "Only the last N prompts.")
        var last = 10

        @Flag(help: "Print JSON: the device's rules and each prompt with why.")
        var json = false

        /// What --json prints.
        struct Report: Encodable {
            struct Shown: Encodable {
                let app: String
                let domain: String
                let kind: String
                let answer: String
                let why: String
            }
            let device: String
            let release: String
            let rules: [String]
            let prompts: [Shown]
        }

        func run() throws {
            let world: World
            do { world = try lab.load() } catch { throw fail("\(error)") }
            guard let declared = world.device(device) else { throw fail("no device \(device) in the world", code: 2) }
            let behaviour = BrokerBehaviour(platform: declared.platform, version: declared.osVersion)
            let prompts = ((try? PromptLog.read(lab.lab.promptLog(device))) ?? []).suffix(last)
            if json {
                let report = Report(
                    device: device,
                    release: behaviour.summary,
                    rules: Self.rules(behaviour),
                    prompts: prompts.map {
                        .init(app: $0.app, domain: $0.domain, kind: $0.kind, answer: $0.answer, why: Self.why($0.kind, behaviour))
                    }
                )
                say(try JSONOutput.pretty(report))
                return
            }
            say("\(device): \(behaviour.summary)")
            for line in Self.rules(behaviour) { say("  - \(line)") }
            say("")
            if prompts.isEmpty {
                say("No prompt shown on \(device) yet.")
                return
            }
            for prompt in prompts {
                say("\(prompt.appName) (\(prompt.app)), \(prompt.domain): \(prompt.kind) → the user: \(prompt.answer)")
                say("  \(Self.why(prompt.kind, behaviour))")
            }
        }

        /// The device's rules, one line each.
        static func rules(_ behaviour: BrokerBehaviour) -> [String] {
            [
                behaviour.addIsSupported
                    ? "SecAddSharedWebCredential is available"
                    : "SecAddSharedWebCredential answers errSecUnimplemented (iOS only)",
                behaviour.promptsForNewAccount
                    ? "saving a new account asks first (iOS 13 and later)"
                    : "a new account is saved without asking (before iOS 13)",
                behaviour.promptsForUnchangedPassword
                    ? "writing an unchanged password asks again (before iOS 11)"
                    : "an unchanged password is written again without asking (iOS 11 and later)",
                "deleting (a NULL password) always asks",
                behaviour.requestGeneration == .picker
                    ? "SecRequestSharedWebCredential shows securityd's picker of saved passwords (before iOS 15.4); Not Now gives an empty answer and no error"
                    : "SecRequestSharedWebCredential shows the password request sheet (iOS 15.4 and later, macOS)",
            ]
        }

        /// Why a prompt of `kind` was shown on a device of `behaviour`.
        static func why(_ kind: String, _ behaviour: BrokerBehaviour) -> String {
            switch kind {
            case "add":
                "a new account for this site: \(behaviour.promptsForNewAccount ? "this release asks before saving it" : "(older releases save it silently)")"
            case "update": "the app saved a different password for a saved account: every release asks before changing it"
            case "delete": "the app passed a NULL password: every release asks before deleting (\"we always prompt\" in Apple's source)"
            case "picker": "the app asked for shared credentials; before iOS 15.4 securityd shows its picker of matching saved passwords"
            case "password-request": "the app asked for shared credentials; from iOS 15.4 the system shows the password request sheet"
            case "keychain-access":
                "a Mac app not on a login-keychain item's access list asked for its secret: macOS asks (Always Allow, Deny, Allow)"
            case "keychain-unlock": "the Mac's login keychain was locked: macOS asks for the keychain password"
            case "passkey-save": "the app asked the platform authenticator for a new passkey: the system asks before saving it"
            case "passkey-sign-in": "the app asked to sign in with a passkey: the system shows the relying party's passkeys to pick from"
            default: "a \(kind) prompt"
            }
        }
    }
}
