import Crypto
import Foundation
import Testing
import WebAuthn

/// WebAuthn Level 3's JSON forms of the platform authenticator's answers (§5.1, `toJSON()`):
/// every member, bytes in base64url without padding, and what a relying party reads back.
@Suite struct ResponseJSONTests {
    static let origin = "https://example.com"
    static let challenge = Array("a fresh challenge of 32 bytes!!!".utf8)
    /// 16 bytes whose base64 has '+' and '/' and ends in "==".
    static let credentialID = Array([[UInt8]](repeating: [0xff, 0xef, 0xfe], count: 5).joined()) + [0xff]
    static let id = "_-_-_-_-_-_-_-_-_-_-_w"
    /// A P-256 SubjectPublicKeyInfo's DER up to the point (RFC 5480): id-ecPublicKey, prime256v1.
    static let spkiHeader: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
        0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aRegistrationIsRegistrationResponseJSON() throws {
        let key = P256.Signing.PrivateKey()
        let created = PlatformAuthenticator.register(
            rpID: "example.com",
            origin: Self.origin,
            challenge: Self.challenge,
            credentialID: Self.credentialID,
            key: key
        )
        let credential = try RegistrationResponseJSON(
            credentialID: Self.credentialID,
            clientDataJSON: created.clientDataJSON,
            attestationObject: created.attestationObject
        )
        let authData = try #require(try CBORDecoder.decode(created.attestationObject)[text: "authData"]?.bytes)
        let spki = Self.spkiHeader + Array(key.publicKey.x963Representation)
        let expected = [
            #"{"authenticatorAttachment":"platform","clientExtensionResults":{},"id":"\#(Self.id)","rawId":"\#(Self.id)","#,
            #""response":{"attestationObject":"\#(Base64URL.encode(created.attestationObject))","#,
            #""authenticatorData":"\#(Base64URL.encode(authData))","clientDataJSON":"\#(Base64URL.encode(created.clientDataJSON))","#,
            #""publicKey":"\#(Base64URL.encode(spki))","publicKeyAlgorithm":-7,"transports":["hybrid","internal"]},"#,
            #""type":"public-key"}"#,
        ].joined()
        #expect(try Self.text(credential) == expected)
        #expect(!expected.contains("="), "base64url without padding")
        #expect(try JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(expected.utf8)) == credential)
        let registered = try RelyingPartyTests.rp.verifyRegistration(credential, challenge: Self.challenge)
        #expect(registered.credentialID == Self.credentialID && registered.publicKey == COSEKey(key.publicKey))
    }

    @Test func anAssertionIsAuthenticationResponseJSON() throws {
        let key = P256.Signing.PrivateKey()
        let asserted = try PlatformAuthenticator.assert(rpID: "example.com", origin: Self.origin, challenge: Self.challenge, key: key)
        let handle = [UInt8](repeating: 0xfb, count: 16)
        let credential = AuthenticationResponseJSON(
            credentialID: Self.credentialID,
            clientDataJSON: asserted.clientDataJSON,
            authenticatorData: asserted.authenticatorData,
            signature: asserted.signature,
            userHandle: handle
        )
        let response = [
            #""authenticatorData":"\#(Base64URL.encode(asserted.authenticatorData))","#,
            #""clientDataJSON":"\#(Base64URL.encode(asserted.clientDataJSON))","signature":"\#(Base64URL.encode(asserted.signature))""#,
        ].joined()
        let head = #"{"authenticatorAttachment":"platform","clientExtensionResults":{},"id":"\#(Self.id)","rawId":"\#(Self.id)","#
        let expected = head + #""response":{\#(response),"userHandle":"-_v7-_v7-_v7-_v7-_v7-w"},"type":"public-key"}"#
        #expect(try Self.text(credential) == expected)
        #expect(try JSONDecoder().decode(AuthenticationResponseJSON.self, from: Data(expected.utf8)) == credential)
        let decoded = try credential.decoded()
        #expect(decoded.credentialID == Self.credentialID && decoded.userHandle == handle && decoded.signature == asserted.signature)

        // No user handle: the member is left out.
        let anonymous = AuthenticationResponseJSON(
            credentialID: Self.credentialID,
            clientDataJSON: asserted.clientDataJSON,
            authenticatorData: asserted.authenticatorData,
            signature: asserted.signature,
            userHandle: nil
        )
        #expect(try Self.text(anonymous) == head + #""response":{\#(response)},"type":"public-key"}"#)
    }

    /// A Level 2 client's answer (no copies, no extension results) and another client's extension
    /// outputs still read.
    @Test func otherClientsAnswersRead() throws {
        let created = PlatformAuthenticator.register(
            rpID: "example.com",
            origin: Self.origin,
            challenge: Self.challenge,
            credentialID: Self.credentialID,
            key: P256.Signing.PrivateKey()
        )
        let levelTwo = [
            #"{"id":"\#(Self.id)","rawId":"\#(Self.id)","type":"public-key","clientExtensionResults":{"credProps":{"rk":true}},"#,
            #""response":{"clientDataJSON":"\#(Base64URL.encode(created.clientDataJSON))","#,
            #""attestationObject":"\#(Base64URL.encode(created.attestationObject))"}}"#,
        ].joined()
        let credential = try JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(levelTwo.utf8))
        #expect(credential.response.transports == nil && credential.authenticatorAttachment == nil)
        #expect(try RelyingPartyTests.rp.verifyRegistration(credential, challenge: Self.challenge).credentialID == Self.credentialID)
    }

    /// What a relying party refuses in a registration's JSON before and after the ceremony's checks.
    @Test func aRegistrationsJSONIsCheckedAsWellAsItsBytes() throws {
        let created = PlatformAuthenticator.register(
            rpID: "example.com",
            origin: Self.origin,
            challenge: Self.challenge,
            credentialID: Self.credentialID,
            key: P256.Signing.PrivateKey()
        )
        let good = try RegistrationResponseJSON(
            credentialID: Self.credentialID,
            clientDataJSON: created.clientDataJSON,
            attestationObject: created.attestationObject
        )
        func verify(_ change: (inout RegistrationResponseJSON) -> Void) -> WebAuthnError? {
            var credential = good
            change(&credential)
            return RelyingPartyTests.refusal { () throws(WebAuthnError) in
                _ = try RelyingPartyTests.rp.verifyRegistration(credential, challenge: Self.challenge)
            }
        }
        #expect(verify { _ in } == nil)
        #expect(verify { $0.id += "==" } == .credentialIDMismatch)
        #expect(verify { $0.type = "password" } == .malformed("the credential's type is not public-key"))
        #expect(verify { $0.response.clientDataJSON = "e30=!" } == .malformed("clientDataJSON is not base64url"))
        let other = Base64URL.encode([UInt8](repeating: 7, count: 16))
        #expect(
            verify {
                $0.id = other
                $0.rawId = other
            } == .malformed("rawId is not the credential ID in the authenticator data")
        )
        // The authenticator data names the credential: a client cannot write another's answer.
        #expect(throws: WebAuthnError.malformed("the credential ID is not the one in the authenticator data")) {
            try RegistrationResponseJSON(
                credentialID: [7],
                clientDataJSON: created.clientDataJSON,
                attestationObject: created.attestationObject
            )
        }
    }
}
