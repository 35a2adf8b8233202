public import Foundation

// The classes here are NSObjects, as Apple's are, and NSObject is not Sendable: their Sendable
// conformances are unchecked. The values (credentials, descriptors, client data, the provider and
// the authorization) hold only `let`s of Sendable types. The requests have Apple's settable
// properties; as with Apple's, an app sets them before `performRequests()` and nothing writes them
// afterwards, so the controller reads them from one thread at a time.

/// A request an `ASAuthorizationController` performs.
open class ASAuthorizationRequest: NSObject, @unchecked Sendable {}

/// Something that makes authorization requests.
public protocol ASAuthorizationProvider: NSObjectProtocol {}

/// A credential an authorization returns.
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// `ASAuthorizationPlatformPublicKeyCredentialProvider`: passkeys of the device's platform
/// authenticator for one relying party.
public final class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider, @unchecked Sendable {
    public let relyingPartyIdentifier: String

    public init(relyingPartyIdentifier: String) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
    }

    public func createCredentialRegistrationRequest(
        challenge: Data,
        name: String,
        userID: Data
    )
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest(
            relyingPartyIdentifier: relyingPartyIdentifier,
            challenge: challenge,
            name: name,
            userID: userID
        )
    }

    /// A web browser's registration request for the page it shows (iOS 17.4, macOS 14.4; needs the
    /// web-browser public-key-credential entitlement).
    public func createCredentialRegistrationRequest(
        clientData: ASPublicKeyCredentialClientData,
        name: String,
        userID: Data
    )
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        let request = createCredentialRegistrationRequest(challenge: clientData.challenge, name: name, userID: userID)
        request.clientData = clientData
        return request
    }

    /// A web browser's assertion request for the page it shows.
    public func createCredentialAssertionRequest(
        clientData: ASPublicKeyCredentialClientData
    )
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    {
        let request = createCredentialAssertionRequest(challenge: clientData.challenge)
        request.clientData = clientData
        return request
    }

    public func createCredentialAssertionRequest(challenge: Data) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        ASAuthorizationPlatformPublicKeyCredentialAssertionRequest(relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge)
    }
}

/// A request to create a passkey.
public final class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest, @unchecked Sendable {
    public let relyingPartyIdentifier: String
    public var challenge: Data
    public var name: String
    public var displayName: String?
    public var userID: Data
    /// A web browser's: the page's challenge and origin.
    public var clientData: ASPublicKeyCredentialClientData?

    init(relyingPartyIdentifier: String, challenge: Data, name: String, userID: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
        self.name = name
        self.userID = userID
    }
}

/// A request to sign in with a passkey.
public final class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest, @unchecked Sendable {
    public let relyingPartyIdentifier: String
    public var challenge: Data
    /// The passkeys the relying party accepts; empty: any of its passkeys.
    public var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    /// A web browser's: the page's challenge and origin.
    public var clientData: ASPublicKeyCredentialClientData?

    init(relyingPartyIdentifier: String, challenge: Data) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.challenge = challenge
    }
}

/// `ASPublicKeyCredentialClientData`: what a web browser passes for the page it shows, which the
/// authenticator writes into clientDataJSON.
public final class ASPublicKeyCredentialClientData: NSObject, @unchecked Sendable {
    public let challenge: Data
    public let origin: String

    public init(challenge: Data, origin: String) {
        self.challenge = challenge
        self.origin = origin
    }
}

/// A passkey's credential ID, as a relying party names it.
public final class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject, @unchecked Sendable {
    public let credentialID: Data

    public init(credentialID: Data) {
        self.credentialID = credentialID
    }
}

/// A new passkey: what the relying party verifies and stores.
public final class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential, @unchecked Sendable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAttestationObject: Data?

    init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
    }
}

/// A passkey sign-in: what the relying party verifies with the stored public key.
public final class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential, @unchecked Sendable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAuthenticatorData: Data
    public let signature: Data
    public let userID: Data

    init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}

/// A completed authorization: the provider asked, and the credential it gave.
public final class ASAuthorization: NSObject, @unchecked Sendable {
    public let provider: any ASAuthorizationProvider
    public let credential: any ASAuthorizationCredential

    init(provider: any ASAuthorizationProvider, credential: any ASAuthorizationCredential) {
        self.provider = provider
        self.credential = credential
    }
}
