public import AuthenticationServices
public import Foundation
import WebAuthn

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
