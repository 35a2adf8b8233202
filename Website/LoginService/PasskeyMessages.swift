/// The JSON the passkey API exchanges: the options a client passes to `navigator.credentials`
/// (or AuthenticationServices), and the credential it answers with, bytes in base64url
/// (WebAuthn Level 3's `…JSON` forms), each answer naming the ceremony it belongs to.
enum PasskeyMessages {
    struct Entity: Codable {
        var id: String
        var name: String
        var displayName: String?
    }

    struct Parameter: Codable {
        var type = "public-key"
        var alg: Int
    }

    struct Descriptor: Codable {
        var type = "public-key"
        var id: String
    }

    struct Selection: Codable {
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "preferred"
    }

    struct CreationOptions: Codable {
        var challenge: String
        var rp: Entity
        var user: Entity
        var pubKeyCredParams: [Parameter]
        var timeout: Int
        var attestation = "none"
        var authenticatorSelection = Selection()
        var excludeCredentials: [Descriptor]
    }

    struct RequestOptions: Codable {
        var challenge: String
        var rpId: String
        var timeout: Int
        var userVerification = "preferred"
        var allowCredentials: [Descriptor]
    }

    struct Begun<Options: Codable>: Codable {
        var ceremony: String
        var publicKey: Options
    }

    struct AttestationResponse: Codable {
        var clientDataJSON: String
        var attestationObject: String
    }

    struct AssertionResponse: Codable {
        var clientDataJSON: String
        var authenticatorData: String
        var signature: String
        var userHandle: String?
    }

    struct Credential<Response: Codable>: Codable {
        var id: String
        var rawId: String
        var type: String
        var response: Response
    }

    struct Finish<Response: Codable>: Codable {
        var ceremony: String
        var credential: Credential<Response>
    }

    struct RegistrationStart: Codable {
        var username: String?
    }
}
