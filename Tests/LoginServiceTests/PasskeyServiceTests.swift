import Crypto
import Foundation
import LoginService
import Testing
import WebAuthn
import WorldFile
import WorldTestSupport

/// The website as a relying party, through the service its API and pages call: passkeys made and
/// used by the platform authenticator in WebAuthn Level 3's JSON, and the refusals with the code
/// each answers (docs/passkeys.md), over a real SQLite store in a temporary folder.
@Suite struct PasskeyServiceTests {
    static let site = "example.com"
    static let origin = "https://example.com"
    /// 16 bytes whose base64 has '+' and '/' and ends in "==": `_-_-_-_-_-_-_-_-_-_-_w` unpadded.
    static let credentialID = Array([[UInt8]](repeating: [0xff, 0xef, 0xfe], count: 5).joined()) + [0xff]

    static func withPasskeys<T>(_ body: (PasskeyService) throws -> T) async throws -> T {
        try await withTemporaryDirectory { folder in
            let world = try World.parse(yaml: "name: sites\nwebsites:\n  - {domain: example.com}\n", file: "sites.yaml")
            let logins = LoginService(store: try AccountStore(directory: folder), hasher: PasswordHasher(logN: 10))
            return try body(PasskeyService(logins: logins, sites: SiteDirectory(world: world)))
        }
    }

    /// Sign-up options for `user` and the platform authenticator's answer, as `toJSON()` writes it.
    static func signUp(
        _ passkeys: PasskeyService,
        _ user: String,
        credentialID: [UInt8] = credentialID,
        key: P256.Signing.PrivateKey
    ) throws -> (ceremony: String, handle: [UInt8], credential: RegistrationResponseJSON) {
        let begun = try passkeys.beginRegistration(site: site, username: user, token: nil)
        let challenge = try #require(Base64URL.decode(begun.publicKey.challenge))
        let handle = try #require(Base64URL.decode(begun.publicKey.user.id))
        let created = PlatformAuthenticator.register(rpID: site, origin: origin, challenge: Array(challenge), credentialID: credentialID, key: key)
        let credential = try RegistrationResponseJSON(
            credentialID: credentialID,
            clientDataJSON: created.clientDataJSON,
            attestationObject: created.attestationObject
        )
        return (begun.ceremony, Array(handle), credential)
    }

    /// Sign-in options and the platform authenticator's assertion with `key`.
    static func signIn(
        _ passkeys: PasskeyService,
        credentialID: [UInt8] = credentialID,
        key: P256.Signing.PrivateKey,
        userHandle: [UInt8]?
    ) throws -> (ceremony: String, credential: AuthenticationResponseJSON) {
        let begun = try passkeys.beginAuthentication(site: site, username: nil)
        let challenge = try #require(Base64URL.decode(begun.publicKey.challenge))
        let asserted = try PlatformAuthenticator.assert(rpID: site, origin: origin, challenge: Array(challenge), key: key)
        let credential = AuthenticationResponseJSON(
            credentialID: credentialID,
            clientDataJSON: asserted.clientDataJSON,
            authenticatorData: asserted.authenticatorData,
            signature: asserted.signature,
            userHandle: userHandle
        )
        return (begun.ceremony, credential)
    }

    static func refusal<T>(_ body: () throws(LoginError) -> T) -> LoginError? {
        do throws(LoginError) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// The answers, as the API reads them from a body: the Level 3 JSON, posted as it is.
    @Test func theLevel3FormsSignUpAndSignIn() async throws {
        try await Self.withPasskeys { passkeys in
            let key = P256.Signing.PrivateKey()
            let made = try Self.signUp(passkeys, "alice", key: key)
            let credential = String(decoding: try JSONEncoder().encode(made.credential), as: UTF8.self)
            let body = #"{"ceremony":"\#(made.ceremony)","credential":\#(credential)}"#
            let posted = try JSONDecoder().decode(PasskeyMessages.Finish<RegistrationResponseJSON>.self, from: Data(body.utf8))
            #expect(try passkeys.finishRegistration(site: Self.site, posted).username == "alice")
            let signIn = try Self.signIn(passkeys, key: key, userHandle: made.handle)
            let answer = try JSONDecoder().decode(AuthenticationResponseJSON.self, from: try JSONEncoder().encode(signIn.credential))
            let session = try passkeys.finishAuthentication(site: Self.site, PasskeyMessages.Finish(ceremony: signIn.ceremony, credential: answer))
            #expect(session.username == "alice")
        }
    }

    /// §5.1: `id` is `rawId` in base64url without padding; any other text is refused, at sign-up
    /// and at sign-in, with `passkey_credential_id_mismatch`.
    @Test(arguments: [
        ("padded", "_-_-_-_-_-_-_-_-_-_-_w=="),
        ("padded once", "_-_-_-_-_-_-_-_-_-_-_w="),
        ("standard base64", "/+/+/+/+/+/+/+/+/+/+/w=="),
        ("standard base64 unpadded", "/+/+/+/+/+/+/+/+/+/+/w"),
        ("another credential's", "BwcHBwcHBwcHBwcHBwcHBw"),
        ("empty", ""),
    ])
    func anIDThatIsNotTheUnpaddedRawIDIsRefused(_ kind: String, _ id: String) async throws {
        try await Self.withPasskeys { passkeys in
            let key = P256.Signing.PrivateKey()
            var made = try Self.signUp(passkeys, "alice", key: key)
            made.credential.id = id
            let refused = Self.refusal { () throws(LoginError) in
                try passkeys.finishRegistration(site: Self.site, PasskeyMessages.Finish(ceremony: made.ceremony, credential: made.credential))
            }
            #expect(refused?.code == "passkey_credential_id_mismatch" && refused?.status == 401, "sign-up, \(kind): \(String(describing: refused))")

            // Answered as the authenticator answers, the sign-up goes through; then the sign-in.
            let again = try Self.signUp(passkeys, "alice", key: key)
            _ = try passkeys.finishRegistration(site: Self.site, PasskeyMessages.Finish(ceremony: again.ceremony, credential: again.credential))
            var signIn = try Self.signIn(passkeys, key: key, userHandle: again.handle)
            signIn.credential.id = id
            let refusedSignIn = Self.refusal { () throws(LoginError) in
                try passkeys.finishAuthentication(site: Self.site, PasskeyMessages.Finish(ceremony: signIn.ceremony, credential: signIn.credential))
            }
            #expect(
                refusedSignIn?.code == "passkey_credential_id_mismatch" && refusedSignIn?.status == 401,
                "sign-in, \(kind): \(String(describing: refusedSignIn))"
            )
        }
    }

    /// The codes docs/passkeys.md gives for the refusals about whose credential answers.
    @Test func refusalsOfTheCredentialAnswerTheDocumentedCodes() async throws {
        try await Self.withPasskeys { passkeys in
            let alice = P256.Signing.PrivateKey()
            let aliceMade = try Self.signUp(passkeys, "alice", key: alice)
            _ = try passkeys.finishRegistration(
                site: Self.site,
                PasskeyMessages.Finish(ceremony: aliceMade.ceremony, credential: aliceMade.credential)
            )
            let bobID = [UInt8](repeating: 0xb0, count: 16)
            let bobMade = try Self.signUp(passkeys, "bob", credentialID: bobID, key: P256.Signing.PrivateKey())
            _ = try passkeys.finishRegistration(site: Self.site, PasskeyMessages.Finish(ceremony: bobMade.ceremony, credential: bobMade.credential))

            func attempt(
                credentialID: [UInt8] = Self.credentialID,
                userHandle: [UInt8]?,
                _ tamper: (inout AuthenticationResponseJSON) -> Void = { _ in }
            ) throws -> LoginError? {
                var answer = try Self.signIn(passkeys, credentialID: credentialID, key: alice, userHandle: userHandle)
                tamper(&answer.credential)
                return Self.refusal { () throws(LoginError) in
                    try passkeys.finishAuthentication(
                        site: Self.site,
                        PasskeyMessages.Finish(ceremony: answer.ceremony, credential: answer.credential)
                    )
                }
            }
            #expect(try attempt(userHandle: aliceMade.handle) == nil)
            #expect(try attempt(userHandle: nil) == nil, "a user handle is optional")
            // Alice's passkey with Bob's user handle: the credential is known, the answer contradicts it.
            #expect(try attempt(userHandle: bobMade.handle)?.code == "passkey_malformed")
            #expect(try attempt(credentialID: Array(repeating: 0x5e, count: 16), userHandle: nil)?.code == "passkey_unknown_credential")
            #expect(try attempt(userHandle: nil) { $0.type = "password" }?.code == "passkey_malformed")
            #expect(try attempt(userHandle: nil) { $0.response.signature = "not base64!" }?.code == "passkey_malformed")

            // A sign-up whose rawId (and id) name another credential than the authenticator data.
            var other = try Self.signUp(passkeys, "carol", credentialID: Array(repeating: 0xca, count: 16), key: P256.Signing.PrivateKey())
            other.credential.id = Base64URL.encode([UInt8](repeating: 0xcb, count: 16))
            other.credential.rawId = other.credential.id
            let refused = Self.refusal { () throws(LoginError) in
                try passkeys.finishRegistration(site: Self.site, PasskeyMessages.Finish(ceremony: other.ceremony, credential: other.credential))
            }
            #expect(refused?.code == "passkey_malformed", "\(String(describing: refused))")
        }
    }
}
