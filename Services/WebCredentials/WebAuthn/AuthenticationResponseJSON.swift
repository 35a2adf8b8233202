import Foundation

/// `AuthenticationResponseJSON` (WebAuthn Level 3 §5.1): the answer to `get()` as
/// `PublicKeyCredential.toJSON()` writes it, the form a browser posts and a relying party's
/// library reads as it is (py_webauthn's `parse_authentication_credential_json`, for one).
public struct AuthenticationResponseJSON: Codable, Hashable, Sendable {
    /// The credential ID in base64url without padding: the same text as `rawId`.
    public var id: String
    /// The credential ID, base64url.
    public var rawId: String
    public var response: AuthenticatorAssertionResponseJSON
    /// `platform` (the device's own authenticator) or `cross-platform` (a security key, a phone).
    public var authenticatorAttachment: String?
    /// Always written; a Level 2 client's answer may lack it.
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON?
    /// `public-key`.
    public var type: String

    public init(
        id: String,
        rawId: String,
        response: AuthenticatorAssertionResponseJSON,
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

    /// What `toJSON()` gives for an authenticator's assertion; `userHandle` is left out when the
    /// authenticator returned none.
    public init(
        credentialID: [UInt8],
        clientDataJSON: [UInt8],
        authenticatorData: [UInt8],
        signature: [UInt8],
        userHandle: [UInt8]?,
        authenticatorAttachment: String? = PlatformAuthenticator.attachment
    ) {
        let id = Base64URL.encode(credentialID)
        self.init(
            id: id,
            rawId: id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL.encode(clientDataJSON),
                authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature),
                userHandle: userHandle.map { Base64URL.encode($0) }
            ),
            authenticatorAttachment: authenticatorAttachment
        )
    }

    /// The bytes a relying party verifies, once the type is `public-key` and `id` is `rawId` (§5.1).
    public func decoded() throws(WebAuthnError) -> (
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?
    ) {
        let credentialID = try PublicKeyCredentialJSON.credentialID(type: type, id: id, rawId: rawId)
        var userHandle: [UInt8]?
        if let handle = response.userHandle { userHandle = try PublicKeyCredentialJSON.bytes(handle, "userHandle") }
        return (
            credentialID,
            try PublicKeyCredentialJSON.bytes(response.clientDataJSON, "clientDataJSON"),
            try PublicKeyCredentialJSON.bytes(response.authenticatorData, "authenticatorData"),
            try PublicKeyCredentialJSON.bytes(response.signature, "signature"),
            userHandle
        )
    }
}

/// `AuthenticatorAssertionResponseJSON` (WebAuthn Level 3 §5.1): the authenticator's answer to
/// `get()`, bytes in base64url.
public struct AuthenticatorAssertionResponseJSON: Codable, Hashable, Sendable {
    public var clientDataJSON: String
    public var authenticatorData: String
    /// The signature over the authenticator data followed by SHA-256 of clientDataJSON.
    public var signature: String
    /// The user handle the passkey was made for; absent when the authenticator returned none.
    public var userHandle: String?

    public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
