/// What the platform authenticator answered, in base64url: the fields of
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` or `…Assertion`.
public struct PasskeyCredential: Codable, Hashable, Sendable {
    public var credentialID: String
    public var clientDataJSON: String
    public var attestationObject: String?
    public var authenticatorData: String?
    public var signature: String?
    public var userID: String?

    public init(
        credentialID: String,
        clientDataJSON: String,
        attestationObject: String? = nil,
        authenticatorData: String? = nil,
        signature: String? = nil,
        userID: String? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userID = userID
    }
}
