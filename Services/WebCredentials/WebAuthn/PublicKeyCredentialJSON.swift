import Foundation

/// What WebAuthn Level 3's two JSON forms of a `PublicKeyCredential` share (§5.1, `toJSON()`):
/// a `PublicKeyCredentialJSON` is a ``RegistrationResponseJSON`` or an ``AuthenticationResponseJSON``,
/// with bytes in base64url without padding (§3).
public enum PublicKeyCredentialJSON {
    /// The `type` of every public key credential.
    public static let credentialType = "public-key"

    /// The checks made before a ceremony's own: the credential's `type` is `public-key`, and its
    /// `id` is `rawId` in unpadded base64url (§5.1). Gives the credential ID's bytes.
    static func credentialID(type: String, id: String, rawId: String) throws(WebAuthnError) -> [UInt8] {
        guard type == credentialType else { throw .malformed("the credential's type is not public-key") }
        try RelyingParty.checkCredentialID(id: id, rawId: rawId)
        return try bytes(rawId, "rawId")
    }

    /// The bytes of a base64url field; one that is not base64url is malformed.
    static func bytes(_ text: String, _ field: String) throws(WebAuthnError) -> [UInt8] {
        guard let data = Base64URL.decode(text) else { throw .malformed("\(field) is not base64url") }
        return Array(data)
    }
}

/// `AuthenticationExtensionsClientOutputsJSON` (§5.1): the outputs of the client extensions the
/// relying party asked for. The lab's clients run none, so it is `{}`; the outputs of extensions
/// another client ran are read as any object and not kept.
public struct AuthenticationExtensionsClientOutputsJSON: Codable, Hashable, Sendable {
    public init() {}

    /// Reads any JSON object (and refuses anything else).
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Name.self)
    }

    /// Writes `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: Name.self)
    }

    /// An extension's identifier, as a key of the object.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            return nil
        }
    }
}
