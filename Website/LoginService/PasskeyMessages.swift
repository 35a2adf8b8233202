/// The JSON the passkey API exchanges: the options a client passes to `navigator.credentials`
/// (or AuthenticationServices), and the credential it answers with (WebAuthn Level 3's
/// `RegistrationResponseJSON` or `AuthenticationResponseJSON`, from the WebAuthn module), bytes in
/// base64url, each answer naming the ceremony it belongs to.
public enum PasskeyMessages {
    /// `PublicKeyCredentialRpEntity` or `PublicKeyCredentialUserEntityJSON`.
    public struct Entity: Codable, Sendable {
        public var id: String
        public var name: String
        public var displayName: String?
    }

    /// `PublicKeyCredentialParameters`: a credential type and COSE algorithm the site accepts.
    public struct Parameter: Codable, Sendable {
        public var type = "public-key"
        public var alg: Int
    }

    /// `PublicKeyCredentialDescriptorJSON`: a credential, by ID.
    public struct Descriptor: Codable, Sendable {
        public var type = "public-key"
        public var id: String
    }

    /// `AuthenticatorSelectionCriteria`: a discoverable credential, user verification preferred.
    public struct Selection: Codable, Sendable {
        public var residentKey = "required"
        public var requireResidentKey = true
        public var userVerification = "preferred"
    }

    /// `PublicKeyCredentialCreationOptionsJSON`.
    public struct CreationOptions: Codable, Sendable {
        public var challenge: String
        public var rp: Entity
        public var user: Entity
        public var pubKeyCredParams: [Parameter]
        public var timeout: Int
        public var attestation = "none"
        public var authenticatorSelection = Selection()
        public var excludeCredentials: [Descriptor]
    }

    /// `PublicKeyCredentialRequestOptionsJSON`.
    public struct RequestOptions: Codable, Sendable {
        public var challenge: String
        public var rpId: String
        public var timeout: Int
        public var userVerification = "preferred"
        public var allowCredentials: [Descriptor]
    }

    /// A ceremony's options and the token its answer names.
    public struct Begun<Options: Codable & Sendable>: Codable, Sendable {
        public var ceremony: String
        public var publicKey: Options
    }

    /// A ceremony's answer: its token and the credential.
    public struct Finish<Credential: Codable & Sendable>: Codable, Sendable {
        public var ceremony: String
        public var credential: Credential

        public init(ceremony: String, credential: Credential) {
            self.ceremony = ceremony
            self.credential = credential
        }
    }

    /// The body of registration options: a new account's name (none to add a passkey to the
    /// signed-in account).
    struct RegistrationStart: Codable {
        var username: String?
    }
}
