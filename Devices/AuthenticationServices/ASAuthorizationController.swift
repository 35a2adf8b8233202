import DeviceProtocol
public import Foundation
import KeychainLabSecurity
import KeychainTypes
import WebAuthn

/// What an `ASAuthorizationController` tells its delegate, on the main queue.
public protocol ASAuthorizationControllerDelegate: AnyObject {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

extension ASAuthorizationControllerDelegate {
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// Where the system's sheet would be shown; a lab device has no windows, so it is not asked.
public protocol ASAuthorizationControllerPresentationContextProviding: AnyObject {}

/// `ASAuthorizationController`: performs passkey requests through the device, which checks the
/// association, asks its user and lets the platform authenticator answer. The private key never
/// reaches the app.
///
/// Unchecked, as NSObject is not Sendable: the requests are `let`; the app sets `delegate` and
/// `presentationContextProvider` before `performRequests()`, as with Apple's, and the controller
/// only reads them afterwards.
public final class ASAuthorizationController: NSObject, @unchecked Sendable {
    public let authorizationRequests: [ASAuthorizationRequest]
    public weak var delegate: (any ASAuthorizationControllerDelegate)?
    public weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    public init(authorizationRequests: [ASAuthorizationRequest]) {
        self.authorizationRequests = authorizationRequests
    }

    /// Performs the first request the platform authenticator handles; the delegate hears the
    /// outcome on the main queue (the controller stays alive until then).
    public func performRequests() {
        DispatchQueue.global().async {
            let outcome = self.perform()
            DispatchQueue.main.async {
                switch outcome {
                case .success(let authorization):
                    self.delegate?.authorizationController(controller: self, didCompleteWithAuthorization: authorization)
                case .failure(let error):
                    self.delegate?.authorizationController(controller: self, didCompleteWithError: error)
                }
            }
        }
    }

    private func perform() -> Result<ASAuthorization, ASAuthorizationError> {
        for request in authorizationRequests {
            if let registration = request as? ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
                let message = DeviceRequest.PasskeyRegistration(
                    relyingParty: registration.relyingPartyIdentifier,
                    userName: registration.name,
                    userID: Base64URL.encode(registration.userID),
                    challenge: Base64URL.encode(registration.challenge),
                    origin: registration.clientData?.origin
                )
                return send(DeviceRequest(.passkeyRegister(message)), provider: registration.relyingPartyIdentifier)
            }
            if let assertion = request as? ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
                let message = DeviceRequest.PasskeyAssertion(
                    relyingParty: assertion.relyingPartyIdentifier,
                    challenge: Base64URL.encode(assertion.challenge),
                    credentialIDs: assertion.allowedCredentials.map { Base64URL.encode($0.credentialID) },
                    origin: assertion.clientData?.origin
                )
                return send(DeviceRequest(.passkeyAssert(message)), provider: assertion.relyingPartyIdentifier)
            }
        }
        return .failure(ASAuthorizationError(.notHandled, failureReason: "No request is one the platform authenticator handles."))
    }

    private func send(_ request: DeviceRequest, provider relyingParty: String) -> Result<ASAuthorization, ASAuthorizationError> {
        let response = DeviceConnection.shared.send(request)
        if let error = response.callError {
            let code = ASAuthorizationError.Code(rawValue: error.code) ?? .failed
            return .failure(ASAuthorizationError(code, failureReason: error.message))
        }
        guard let passkey = response.passkey, let clientData = Base64URL.decode(passkey.clientDataJSON),
            let credentialID = Base64URL.decode(passkey.credentialID)
        else {
            return .failure(ASAuthorizationError(.failed, failureReason: response.error ?? response.reason ?? "The device gave no credential."))
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
        if request.operation == .passkeyRegister {
            let registration = ASAuthorizationPlatformPublicKeyCredentialRegistration(
                credentialID: credentialID,
                rawClientDataJSON: clientData,
                rawAttestationObject: passkey.attestationObject.flatMap(Base64URL.decode)
            )
            return .success(ASAuthorization(provider: provider, credential: registration))
        }
        guard let authenticatorData = passkey.authenticatorData.flatMap(Base64URL.decode),
            let signature = passkey.signature.flatMap(Base64URL.decode)
        else { return .failure(ASAuthorizationError(.invalidResponse, failureReason: "The assertion is incomplete.")) }
        let assertion = ASAuthorizationPlatformPublicKeyCredentialAssertion(
            credentialID: credentialID,
            rawClientDataJSON: clientData,
            rawAuthenticatorData: authenticatorData,
            signature: signature,
            userID: passkey.userID.flatMap(Base64URL.decode) ?? Data()
        )
        return .success(ASAuthorization(provider: provider, credential: assertion))
    }
}
