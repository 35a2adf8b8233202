import Crypto
import DeviceProtocol
import Foundation
import LabControl
import Testing
import WebAuthn
import WorldTestSupport

/// Passkeys against independent implementations from PyPI: the website (behind nginx) verifies
/// what soft-webauthn's software authenticator answers, and refuses each forged answer; and
/// py_webauthn, as a relying party, verifies what the lab's platform authenticator writes.
@Suite(.serialized) struct PasskeyInteropTests {
    @Test func theWebsiteVerifiesAnIndependentAuthenticator() async throws {
        let python = try PythonEnvironment.python()
        try await withLab(LoginWebsiteTests.world) { (lab: RunningLab) async throws in
            let site = try #require(lab.summary.websites)
            let ca = lab.state.builtWorld.appending(path: "trust/web-root-ca.pem").path
            let result = try run(python, [PythonEnvironment.script("webauthn-soft-authenticator.py"), site.address, "\(site.port)", ca])
            #expect(result.status == 0, "\(result.stderr)")
            var steps: [String: String] = [:]
            for line in result.stdout.split(separator: "\n") {
                let step = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                steps[step["step"] as? String ?? ""] = "\(step["status"] ?? "") \(step["error"] as? String ?? "ok")"
            }
            #expect(
                steps == [
                    "register": "201 ok",
                    "sign-in": "200 ok",
                    "replayed-ceremony": "400 ceremony_unknown",
                    "replayed-challenge": "401 passkey_challenge_mismatch",
                    "wrong-origin": "401 passkey_origin_mismatch",
                    "wrong-port": "401 passkey_origin_mismatch",
                    "id-not-rawid": "401 passkey_credential_id_mismatch",
                    "padded-id": "401 passkey_credential_id_mismatch",
                    "standard-base64-id": "401 passkey_credential_id_mismatch",
                    "another-accounts-user-handle": "401 passkey_malformed",
                    "backup-eligibility-changed": "401 passkey_backup_eligibility_changed",
                    "bad-signature": "401 passkey_bad_signature",
                    "wrong-rp-id": "401 passkey_rp_id_mismatch",
                    "counter-rollback": "401 passkey_counter_rollback",
                    "unknown-credential": "401 passkey_unknown_credential",
                    "credential-taken": "409 passkey_taken",
                    "name-taken": "409 username_taken",
                    "second-account": "201 ok",
                ],
                "\(result.stdout)\n\(result.stderr)"
            )
        }
    }

    @Test func anIndependentRelyingPartyVerifiesThePlatformAuthenticator() async throws {
        let python = try PythonEnvironment.python()
        let key = P256.Signing.PrivateKey()
        let credentialID = Array(PasskeyInteropTests.random(16))
        let origin = "https://example.com"
        let registrationChallenge = Array(PasskeyInteropTests.random(32))
        let created = PlatformAuthenticator.register(
            rpID: "example.com",
            origin: origin,
            challenge: registrationChallenge,
            credentialID: credentialID,
            key: key
        )
        let assertionChallenge = Array(PasskeyInteropTests.random(32))
        let asserted = try PlatformAuthenticator.assert(rpID: "example.com", origin: origin, challenge: assertionChallenge, key: key)
        // WebAuthn Level 3's JSON forms, as kclab and the browser write them; py_webauthn reads them as they are.
        let registration = try RegistrationResponseJSON(
            credentialID: credentialID,
            clientDataJSON: created.clientDataJSON,
            attestationObject: created.attestationObject
        )
        let assertion = AuthenticationResponseJSON(
            credentialID: credentialID,
            clientDataJSON: asserted.clientDataJSON,
            authenticatorData: asserted.authenticatorData,
            signature: asserted.signature,
            userHandle: Array(PasskeyInteropTests.random(16))
        )
        let registrationJSON = try Self.object(registration)
        let assertionJSON = try Self.object(assertion)
        let ceremonies: [String: Any] = [
            "rpID": "example.com", "origin": origin,
            "registration": ["challenge": Base64URL.encode(registrationChallenge), "credential": registrationJSON],
            "assertion": ["challenge": Base64URL.encode(assertionChallenge), "credential": assertionJSON],
        ]
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: "ceremonies.json")
            try JSONSerialization.data(withJSONObject: ceremonies).write(to: file)
            let result = try run(python, [PythonEnvironment.script("webauthn-verify.py"), file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("registration verified none multi_device True"), "\(result.stdout)")
            #expect(result.stdout.contains("registration json hybrid,internal platform platform"), "\(result.stdout)")
            #expect(result.stdout.contains("assertion verified 0 True"), "\(result.stdout)")
        }
    }

    /// A JSON form as the object JSONSerialization writes into the ceremonies file.
    static func object(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
    }

    static func random(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max) })
    }
}
