public import AuthenticationServices
public import Foundation
import Synchronization
import WebAuthn

/// One `ASAuthorizationController` request, awaited: the delegate's answer as a result.
/// `@unchecked Sendable` because NSObject is not Sendable; the one mutable field, the waiting
/// continuation, is behind a Mutex, so the delegate may be called from any thread, once.
public final class Authorization: NSObject, ASAuthorizationControllerDelegate, @unchecked Sendable {
    private let continuation = Mutex<CheckedContinuation<ASAuthorization, any Error>?>(nil)

    public static func perform(_ request: ASAuthorizationRequest) async throws -> ASAuthorization {
        let delegate = Authorization()
        let controller = ASAuthorizationController(authorizationRequests: [request])
        controller.delegate = delegate
        return try await withCheckedThrowingContinuation { continuation in
            delegate.continuation.withLock { $0 = continuation }
            controller.performRequests()
        }
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        continuation.withLock { $0.take() }?.resume(returning: authorization)
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        continuation.withLock { $0.take() }?.resume(throwing: error)
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
