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
                    "backup-eligibility-changed": "401 passkey_backup_eligibility_changed",
                    "bad-signature": "401 passkey_bad_signature",
                    "wrong-rp-id": "401 passkey_rp_id_mismatch",
                    "counter-rollback": "401 passkey_counter_rollback",
                    "unknown-credential": "401 passkey_unknown_credential",
                    "credential-taken": "409 passkey_taken",
                    "name-taken": "409 username_taken",
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
        let id = Base64URL.encode(credentialID)
        let ceremonies: [String: Any] = [
            "rpID": "example.com", "origin": origin,
            "registration": [
                "challenge": Base64URL.encode(registrationChallenge),
                "credential": [
                    "id": id, "rawId": id, "type": "public-key",
                    "response": [
                        "clientDataJSON": Base64URL.encode(created.clientDataJSON), "attestationObject": Base64URL.encode(created.attestationObject),
                    ],
                ],
            ],
            "assertion": [
                "challenge": Base64URL.encode(assertionChallenge),
                "credential": [
                    "id": id, "rawId": id, "type": "public-key",
                    "response": [
                        "clientDataJSON": Base64URL.encode(asserted.clientDataJSON),
                        "authenticatorData": Base64URL.encode(asserted.authenticatorData), "signature": Base64URL.encode(asserted.signature),
                    ],
                ],
            ],
        ]
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: "ceremonies.json")
            try JSONSerialization.data(withJSONObject: ceremonies).write(to: file)
            let result = try run(python, [PythonEnvironment.script("webauthn-verify.py"), file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("registration verified none multi_device True"), "\(result.stdout)")
            #expect(result.stdout.contains("assertion verified 0 True"), "\(result.stdout)")
        }
    }

    static func random(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max) })
    }
}
