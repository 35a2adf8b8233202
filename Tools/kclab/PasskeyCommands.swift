import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainTypes
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
                canceled, 1003 not handled, 1004 failed); passkey is the credential in WebAuthn Level 3's JSON \
                (RegistrationResponseJSON from register, AuthenticationResponseJSON from assert), which a \
                relying party's verifier takes as it is.
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
                let response = try target.client().send(DeviceRequest(.passkeyRegister(registration), app: target.app))
                try printCredentialResponse(response) { try Passkey.registrationJSON($0) }
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
                let response = try target.client().send(DeviceRequest(.passkeyAssert(assertion), app: target.app))
                try printCredentialResponse(response) { try Passkey.authenticationJSON($0) }
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

        /// An `ASAuthorizationPlatformPublicKeyCredentialRegistration`'s fields as `toJSON()` writes them.
        static func registrationJSON(_ passkey: PasskeyCredential) throws -> RegistrationResponseJSON {
            do throws(WebAuthnError) {
                return try RegistrationResponseJSON(
                    credentialID: try bytes(passkey.credentialID),
                    clientDataJSON: try bytes(passkey.clientDataJSON),
                    attestationObject: try bytes(passkey.attestationObject)
                )
            } catch {
                throw fail("the device's passkey cannot be written as WebAuthn's JSON: \(error)")
            }
        }

        /// An `ASAuthorizationPlatformPublicKeyCredentialAssertion`'s fields as `toJSON()` writes them.
        static func authenticationJSON(_ passkey: PasskeyCredential) throws -> AuthenticationResponseJSON {
            do throws(WebAuthnError) {
                var userHandle: [UInt8]?
                if let handle = passkey.userID { userHandle = try bytes(handle) }
                return AuthenticationResponseJSON(
                    credentialID: try bytes(passkey.credentialID),
                    clientDataJSON: try bytes(passkey.clientDataJSON),
                    authenticatorData: try bytes(passkey.authenticatorData),
                    signature: try bytes(passkey.signature),
                    userHandle: userHandle
                )
            } catch {
                throw fail("the device's passkey cannot be written as WebAuthn's JSON: \(error)")
            }
        }

        /// A field of the device's answer, which is base64url.
        private static func bytes(_ field: String?) throws(WebAuthnError) -> [UInt8] {
            guard let field, let data = Base64URL.decode(field) else { throw .malformed("a field is missing or not base64url") }
            return Array(data)
        }
    }
}
