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
/// `AuthenticationResponseJSON`), the form `PublicKeyCredential.toJSON()` gives a page and
/// relying parties take, as a JSON object to post.
public enum PasskeyJSON {
    public static func registration(_ credential: ASAuthorizationPlatformPublicKeyCredentialRegistration) throws -> [String: Any] {
        try object(
            RegistrationResponseJSON(
                credentialID: Array(credential.credentialID),
                clientDataJSON: Array(credential.rawClientDataJSON),
                attestationObject: Array(credential.rawAttestationObject ?? Data())
            )
        )
    }

    public static func assertion(_ credential: ASAuthorizationPlatformPublicKeyCredentialAssertion) throws -> [String: Any] {
        try object(
            AuthenticationResponseJSON(
                credentialID: Array(credential.credentialID),
                clientDataJSON: Array(credential.rawClientDataJSON),
                authenticatorData: Array(credential.rawAuthenticatorData),
                signature: Array(credential.signature),
                userHandle: Array(credential.userID)
            )
        )
    }

    private static func object(_ value: some Encodable) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any] ?? [:]
    }
}
