import ArgumentParser
import DeviceProtocol
import Foundation
import LabControl
import WebAuthn

extension AppCommand {
    /// `kclab app passkey register|assert … DOMAIN`
    struct Passkey: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a passkey request as the app, as ASAuthorizationController performs it (docs/passkeys.md).",
            discussion: """
                The device checks that DOMAIN's webcredentials entry lists the app, its scripted user answers \
                the passkey sheet (kclab device answer), and the platform authenticator answers. Prints \
                {"status", "name", "error", "passkey", "reason"}: error is the ASAuthorizationError (code 1001 \
                canceled, 1003 not handled, 1004 failed), passkey the credential's fields in base64url.
                """,
            subcommands: [Register.self, Assert.self, List.self]
        )

        struct Register: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "createCredentialRegistrationRequest(challenge:name:userID:): save a new passkey for DOMAIN."
            )
            @OptionGroup var target: AppCommand.Target
            @Argument(help: "The relying party ID, such as example.com.") var domain: String
            @Option(help: "The user name the passkey is for.") var user = "user"
            @Option(help: "The user handle, base64url (default: random).") var userID: String?
            @Option(help: "The challenge, base64url (default: 32 random bytes).") var challenge: String?

            func run() throws {
                let registration = DeviceRequest.PasskeyRegistration(
                    relyingParty: domain,
                    userName: user,
                    userID: userID ?? Passkey.random(16),
                    challenge: challenge ?? Passkey.random(32)
                )
                try printCredentialResponse(try target.client().send(DeviceRequest(.passkeyRegister(registration), app: target.app)))
            }
        }

        struct Assert: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "createCredentialAssertionRequest(challenge:): sign in to DOMAIN with a passkey the user picks."
            )
            @OptionGroup var target: AppCommand.Target
            @Argument(help: "The relying party ID, such as example.com.") var domain: String
            @Option(help: "The challenge, base64url (default: 32 random bytes).") var challenge: String?
            @Option(help: "A credential ID the relying party allows, base64url (repeatable; default: any).") var allow: [String] = []

            func run() throws {
                let assertion = DeviceRequest.PasskeyAssertion(
                    relyingParty: domain,
                    challenge: challenge ?? Passkey.random(32),
                    credentialIDs: allow.isEmpty ? nil : allow
                )
                try printCredentialResponse(try target.client().send(DeviceRequest(.passkeyAssert(assertion), app: target.app)))
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "The passkeys of DOMAIN on the device (this device's and the iCloud account's), as the app may use them; never a key."
            )
            @OptionGroup var target: AppCommand.Target
            @Argument(help: "The relying party ID, such as example.com.") var domain: String

            func run() throws {
                let request = DeviceRequest(.passkeyList(relyingParty: domain), app: target.app)
                try printCredentialResponse(try target.client().send(request), credentials: true)
            }
        }

        static func random(_ count: Int) -> String {
            Base64URL.encode((0..<count).map { _ in UInt8.random(in: .min ... .max) })
        }
    }
}
