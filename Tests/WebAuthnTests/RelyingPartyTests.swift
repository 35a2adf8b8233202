import Crypto
import Foundation
import Testing
import WebAuthn

/// The relying party's checks against what the platform authenticator writes: a good ceremony of
/// each kind, then each refusal a real RP makes (WebAuthn Level 3 §7.1, §7.2).
@Suite struct RelyingPartyTests {
    static let rp = RelyingParty(id: "example.com", hosts: ["example.com", "www.example.com"], ports: [443, 8443])
    static let origin = "https://example.com"
    static let challenge = Array("a fresh challenge of 32 bytes!!!".utf8)
    static let credentialID = [UInt8](repeating: 7, count: 16)

    static func registration(
        rpID: String = "example.com",
        origin: String = origin,
        challenge: [UInt8] = challenge,
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()
    ) -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        PlatformAuthenticator.register(rpID: rpID, origin: origin, challenge: challenge, credentialID: credentialID, key: key)
    }

    @Test func registersAndSignsIn() throws {
        let key = P256.Signing.PrivateKey()
        let created = Self.registration(key: key)
        let registered = try Self.rp.verifyRegistration(
            clientDataJSON: created.clientDataJSON,
            attestationObject: created.attestationObject,
            challenge: Self.challenge
        )
        #expect(registered.credentialID == Self.credentialID)
        #expect(registered.publicKey == COSEKey(key.publicKey))
        #expect(registered.backupEligible && registered.backedUp && registered.signCount == 0)

        let challenge = Array("another challenge, for sign-in!!".utf8)
        let assertion = try PlatformAuthenticator.assert(rpID: "example.com", origin: "https://www.example.com:8443", challenge: challenge, key: key)
        let accepted = try Self.rp.verifyAssertion(
            clientDataJSON: assertion.clientDataJSON,
            authenticatorData: assertion.authenticatorData,
            signature: assertion.signature,
            challenge: challenge,
            publicKey: registered.publicKey,
            storedSignCount: 0,
            storedBackupEligible: registered.backupEligible
        )
        #expect(accepted.signCount == 0 && accepted.backedUp)
    }

    static func refusal(_ body: () throws(WebAuthnError) -> Void) -> WebAuthnError? {
        do throws(WebAuthnError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesABadRegistration() {
        func verify(_ created: (clientDataJSON: [UInt8], attestationObject: [UInt8]), challenge: [UInt8] = Self.challenge) -> WebAuthnError? {
            Self.refusal { () throws(WebAuthnError) in
                _ = try Self.rp.verifyRegistration(
                    clientDataJSON: created.clientDataJSON,
                    attestationObject: created.attestationObject,
                    challenge: challenge
                )
            }
        }
        #expect(verify(Self.registration(), challenge: Array("an older challenge".utf8)) == .challengeMismatch)
        #expect(verify(Self.registration(origin: "https://evil.example")) == .originMismatch("https://evil.example"))
        #expect(verify(Self.registration(origin: "http://example.com")) == .originMismatch("http://example.com"))
        // Another port is another origin: only 443 and the port the site is served on.
        #expect(verify(Self.registration(origin: "https://example.com:8444")) == .originMismatch("https://example.com:8444"))
        #expect(verify(Self.registration(origin: "https://www.example.com:8443")) == nil)
        #expect(verify(Self.registration(origin: "https://example.com:443")) == nil)
        #expect(verify(Self.registration(rpID: "evil.example")) == .rpIDMismatch)
        // An assertion's client data where a registration's belongs.
        let assertion = try! PlatformAuthenticator.assert(rpID: "example.com", origin: Self.origin, challenge: Self.challenge, key: .init())
        #expect(
            verify((assertion.clientDataJSON, Self.registration().attestationObject)) == .wrongType(expected: "webauthn.create", got: "webauthn.get")
        )
        // Attestation other than none.
        var object = try! CBORDecoder.decode(Self.registration().attestationObject)
        if case .map(var pairs) = object {
            pairs[0].value = .text("packed")
            object = .map(pairs)
        }
        #expect(verify((Self.registration().clientDataJSON, object.encoded())) == .unsupportedAttestation("packed"))
        #expect(verify((Self.registration().clientDataJSON, [0xa0])) == .malformed("attestationObject lacks fmt, attStmt or authData"))
    }

    @Test func refusesFlagsARealRPRefuses() throws {
        let key = P256.Signing.PrivateKey()
        let hash = Array(SHA256.hash(data: Data("example.com".utf8)))
        func attempt(_ flags: AuthenticatorData.Flags, registeredBackupEligible: Bool = false) -> WebAuthnError? {
            let data = AuthenticatorData(rpIDHash: hash, flags: flags, signCount: 0).bytes
            let clientData = ClientData(type: ClientData.get, challenge: Self.challenge, origin: Self.origin).json
            let signature = Array(try! key.signature(for: data + Array(SHA256.hash(data: clientData))).derRepresentation)
            return Self.refusal { () throws(WebAuthnError) in
                _ = try Self.rp.verifyAssertion(
                    clientDataJSON: clientData,
                    authenticatorData: data,
                    signature: signature,
                    challenge: Self.challenge,
                    publicKey: COSEKey(key.publicKey),
                    storedSignCount: 0,
                    storedBackupEligible: registeredBackupEligible
                )
            }
        }
        #expect(attempt([.userVerified]) == .userNotPresent)
        #expect(attempt([.userPresent]) == .userNotVerified)
        #expect(attempt([.userPresent, .userVerified, .backedUp]) == .inconsistentBackupFlags)
        #expect(attempt([.userPresent, .userVerified]) == nil, "a device-bound credential is fine")
        // §7.2 step 18: BE may not change after registration, either way.
        #expect(attempt([.userPresent, .userVerified], registeredBackupEligible: true) == .backupEligibilityChanged(stored: true))
        #expect(attempt([.userPresent, .userVerified, .backupEligible]) == .backupEligibilityChanged(stored: false))
        #expect(attempt([.userPresent, .userVerified, .backupEligible], registeredBackupEligible: true) == nil)
    }

    @Test func refusesABadSignatureAndACounterThatGoesBack() throws {
        let key = P256.Signing.PrivateKey()
        func attempt(signCount: UInt32, stored: UInt32, signer: P256.Signing.PrivateKey) -> WebAuthnError? {
            let assertion = try! PlatformAuthenticator.assert(
                rpID: "example.com",
                origin: Self.origin,
                challenge: Self.challenge,
                key: signer,
                signCount: signCount
            )
            return Self.refusal { () throws(WebAuthnError) in
                _ = try Self.rp.verifyAssertion(
                    clientDataJSON: assertion.clientDataJSON,
                    authenticatorData: assertion.authenticatorData,
                    signature: assertion.signature,
                    challenge: Self.challenge,
                    publicKey: COSEKey(key.publicKey),
                    storedSignCount: stored,
                    storedBackupEligible: true
                )
            }
        }
        #expect(attempt(signCount: 0, stored: 0, signer: P256.Signing.PrivateKey()) == .badSignature)
        #expect(attempt(signCount: 5, stored: 5, signer: key) == .counterRollback(stored: 5, received: 5))
        #expect(attempt(signCount: 0, stored: 3, signer: key) == .counterRollback(stored: 3, received: 0))
        #expect(attempt(signCount: 6, stored: 5, signer: key) == nil)
    }

    /// §5.1: `id` is `rawId` in base64url without padding; `rawId` may carry padding. The
    /// credential ID here is 16 bytes whose base64 has '+' and '/' and ends in "==".
    @Test(arguments: [
        ("_-_-_-_-_-_-_-_-_-_-_w", "_-_-_-_-_-_-_-_-_-_-_w", true),
        ("_-_-_-_-_-_-_-_-_-_-_w", "_-_-_-_-_-_-_-_-_-_-_w==", true),
        ("_-_-_-_-_-_-_-_-_-_-_w==", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("_-_-_-_-_-_-_-_-_-_-_w=", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("/+/+/+/+/+/+/+/+/+/+/w==", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("/+/+/+/+/+/+/+/+/+/+/w", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("BwcHBwcHBwcHBwcHBwcHBw", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("not base64!", "_-_-_-_-_-_-_-_-_-_-_w", false),
        ("_-_-_-_-_-_-_-_-_-_-_w", "not base64!", false),
    ])
    func credentialIDMustBeRawIDUnpadded(_ id: String, _ rawId: String, _ accepted: Bool) {
        let refusal = Self.refusal { () throws(WebAuthnError) in try RelyingParty.checkCredentialID(id: id, rawId: rawId) }
        let expected: WebAuthnError? = accepted ? nil : .credentialIDMismatch
        #expect(refusal == expected, "id \(id), rawId \(rawId)")
    }

    @Test func coseKeysAreES256Only() throws {
        let key = COSEKey(P256.Signing.PrivateKey().publicKey)
        #expect(try COSEKey(cbor: key.cbor) == key)
        var rs256 = key.cbor
        if case .map(var pairs) = rs256 {
            pairs[1].value = .int(-257)
            rs256 = .map(pairs)
        }
        #expect(throws: WebAuthnError.unsupportedKey("alg is not ES256 (-7)")) { try COSEKey(cbor: rs256) }
    }

    @Test func authenticatorDataRefusesTruncationAndTrailingBytes() throws {
        let created = Self.registration()
        let object = try CBORDecoder.decode(created.attestationObject)
        let authData = try #require(object[text: "authData"]?.bytes)
        #expect(try AuthenticatorData(bytes: authData).bytes == authData)
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(authData.prefix(36))) }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: Array(authData.prefix(60))) }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: authData + [0]) }
    }
}
