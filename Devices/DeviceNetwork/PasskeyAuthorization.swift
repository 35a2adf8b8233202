public import AuthenticationServices
public import Foundation

/// One `ASAuthorizationController` request, awaited: the delegate's answer as a result.
public final class Authorization: NSObject, ASAuthorizationControllerDelegate, @unchecked Sendable {
    private var continuation: CheckedContinuation<ASAuthorization, any Error>?

    public static func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorization {
        let delegate = Authorization()
        let controller = ASAuthorizationController(authorizationRequests: [request])
        controller.delegate = delegate
        return try await withCheckedThrowingContinuation { continuation in
            delegate.continuation = continuation
            controller.performRequests()
        }
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        continuation?.resume(returning: authorization)
        continuation = nil
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}

/// base64url, as WebAuthn's JSON forms carry bytes.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// A passkey credential as WebAuthn Level 3's JSON (`RegistrationResponseJSON`,
/// `AuthenticationResponseJSON`), the form relying parties take.
public enum PasskeyJSON {
    public static func registration(_ credential: ASAuthorizationPlatformPublicKeyCredentialRegistration) -> [String: Any] {
        let id = Base64URL.encode(credential.credentialID)
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(credential.rawClientDataJSON),
                "attestationObject": Base64URL.encode(credential.rawAttestationObject ?? Data()),
            ],
        ]
    }

    public static func assertion(_ credential: ASAuthorizationPlatformPublicKeyCredentialAssertion) -> [String: Any] {
        let id = Base64URL.encode(credential.credentialID)
        return [
            "id": id, "rawId": id, "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(credential.rawClientDataJSON),
                "authenticatorData": Base64URL.encode(credential.rawAuthenticatorData),
                "signature": Base64URL.encode(credential.signature), "userHandle": Base64URL.encode(credential.userID),
            ],
        ]
    }
}
