import Crypto
import Foundation

/// `RegistrationResponseJSON` (WebAuthn Level 3 §5.1): the answer to `create()` as
/// `PublicKeyCredential.toJSON()` writes it, the form a browser posts and a relying party's
/// library reads as it is (py_webauthn's `parse_registration_credential_json`, for one).
public struct RegistrationResponseJSON: Codable, Hashable, Sendable {
    /// The credential ID in base64url without padding: the same text as `rawId`.
    public var id: String
    /// The credential ID, base64url.
    public var rawId: String
    public var response: AuthenticatorAttestationResponseJSON
    /// `platform` (the device's own authenticator) or `cross-platform` (a security key, a phone).
    public var authenticatorAttachment: String?
    /// Always written; a Level 2 client's answer may lack it.
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON?
    /// `public-key`.
    public var type: String

    public init(
        id: String,
        rawId: String,
        response: AuthenticatorAttestationResponseJSON,
        authenticatorAttachment: String? = nil,
        clientExtensionResults: AuthenticationExtensionsClientOutputsJSON? = AuthenticationExtensionsClientOutputsJSON(),
        type: String = PublicKeyCredentialJSON.credentialType
    ) {
        self.id = id
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }

    /// What `toJSON()` gives for an authenticator's answer: the convenience copies
    /// (`authenticatorData`, `publicKey` as a DER SubjectPublicKeyInfo, `publicKeyAlgorithm`) are
    /// read from the attestation object, as a client reads them (§5.2.1.1); `transports` are
    /// written unique and sorted, as `getTransports()` gives them.
    public init(
        credentialID: [UInt8],
        clientDataJSON: [UInt8],
        attestationObject: [UInt8],
        transports: [String] = PlatformAuthenticator.transports,
        authenticatorAttachment: String? = PlatformAuthenticator.attachment
    ) throws(WebAuthnError) {
        let object: CBOR
        do {
            object = try CBORDecoder.decode(attestationObject)
        } catch {
            throw .malformed("attestationObject: \(error)")
        }
        guard let authData = object[text: "authData"]?.bytes else { throw .malformed("attestationObject lacks authData") }
        guard let credential = try AuthenticatorData(bytes: authData).attestedCredential else {
            throw .malformed("the authenticator data carries no attested credential")
        }
        guard credential.credentialID == credentialID else { throw .malformed("the credential ID is not the one in the authenticator data") }
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id,
            rawId: id,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                authenticatorData: Base64URL.encode(authData),
                transports: Set(transports).sorted(),
                publicKey: Base64URL.encode(credential.publicKey.publicKey.derRepresentation),
                publicKeyAlgorithm: COSEKey.es256,
                attestationObject: Base64URL.encode(attestationObject)
            ),
            authenticatorAttachment: authenticatorAttachment
        )
    }

    /// The bytes a relying party verifies, once the type is `public-key` and `id` is `rawId`
    /// (§5.1). The convenience copies are not read: the attestation object they come from is what
    /// ``RelyingParty/verifyRegistration(_:challenge:)`` checks.
    public func decoded() throws(WebAuthnError) -> (credentialID: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        let credentialID = try PublicKeyCredentialJSON.credentialID(type: type, id: id, rawId: rawId)
        return (
            credentialID,
            try PublicKeyCredentialJSON.bytes(response.clientDataJSON, "clientDataJSON"),
            try PublicKeyCredentialJSON.bytes(response.attestationObject, "attestationObject")
        )
    }
}

/// `AuthenticatorAttestationResponseJSON` (WebAuthn Level 3 §5.1): the authenticator's answer to
/// `create()`, bytes in base64url. Level 3 requires every field but `publicKey`; those Level 2
/// did not have are optional here, so a Level 2 client's answer (clientDataJSON and
/// attestationObject) still reads. What this lab writes carries them all.
public struct AuthenticatorAttestationResponseJSON: Codable, Hashable, Sendable {
    public var clientDataJSON: String
    /// The authenticator data, a copy of the attestation object's `authData`.
    public var authenticatorData: String?
    /// How the client can reach the authenticator again (`AuthenticatorTransport` values), sorted.
    public var transports: [String]?
    /// The credential public key as a DER SubjectPublicKeyInfo (absent for an algorithm the client
    /// does not know).
    public var publicKey: String?
    /// The credential public key's COSE algorithm (-7: ES256).
    public var publicKeyAlgorithm: Int?
    public var attestationObject: String

    public init(
        clientDataJSON: String,
        authenticatorData: String? = nil,
        transports: [String]? = nil,
        publicKey: String? = nil,
        publicKeyAlgorithm: Int? = nil,
        attestationObject: String
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.attestationObject = attestationObject
    }
}
