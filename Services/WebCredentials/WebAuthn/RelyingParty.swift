import Crypto
import Foundation

/// A WebAuthn relying party's checks (WebAuthn Level 3 §7.1 and §7.2) for ES256 credentials and
/// attestation `none`: every field a real RP verifies, each refusal its own ``WebAuthnError``.
public struct RelyingParty: Sendable {
    /// The RP ID: the site's registrable domain.
    public let id: String
    /// The hosts whose `https` origins belong to this RP (the RP ID and its subdomains it serves).
    public let hosts: Set<String>
    /// The ports those origins may name (443 when an origin names none): an origin is scheme, host
    /// and port, and another port on the same host is another origin (RFC 6454).
    public let ports: Set<Int>
    /// Whether the UV flag is required (passkeys: yes).
    public let requiresUserVerification: Bool

    public init(id: String, hosts: Set<String>, ports: Set<Int> = [443], requiresUserVerification: Bool = true) {
        self.id = id
        self.hosts = hosts.union([id])
        self.ports = ports
        self.requiresUserVerification = requiresUserVerification
    }

    /// A credential the registration ceremony accepted.
    public struct Registration: Hashable, Sendable {
        public var credentialID: [UInt8]
        public var publicKey: COSEKey
        public var signCount: UInt32
        public var backupEligible: Bool
        public var backedUp: Bool
    }

    /// What the authentication ceremony accepted: the counter and backup state to store.
    public struct Assertion: Hashable, Sendable {
        public var signCount: UInt32
        public var backedUp: Bool
    }

    /// Whether `origin` is `https://HOST[:PORT]` for one of this RP's hosts and ports.
    public func isOwnOrigin(_ origin: String) -> Bool {
        guard let components = URLComponents(string: origin), components.scheme == "https", let host = components.host?.lowercased(),
            components.path.isEmpty, components.query == nil, components.user == nil, components.fragment == nil
        else { return false }
        return hosts.contains(host) && ports.contains(components.port ?? 443)
    }

    /// §5.1: a `PublicKeyCredential`'s `id` is the base64url encoding of its `rawId`, which
    /// WebAuthn defines without padding (§3). An `id` that is padded, in standard base64 or of
    /// another credential is not what a conforming client sends, and is refused (as py_webauthn
    /// refuses it); `rawId` itself may be padded, as the other byte fields may.
    public static func checkCredentialID(id: String, rawId: String) throws(WebAuthnError) {
        guard let raw = Base64URL.decode(rawId), id == Base64URL.encode(raw) else {
            throw .credentialIDMismatch
        }
    }

    /// §7.1 for a registration's JSON: the type and `id` (§5.1), then the ceremony's checks, then
    /// `rawId` against the credential ID the authenticator data attests.
    public func verifyRegistration(_ credential: RegistrationResponseJSON, challenge: [UInt8]) throws(WebAuthnError) -> Registration {
        let answer = try credential.decoded()
        let registered = try verifyRegistration(
            clientDataJSON: answer.clientDataJSON,
            attestationObject: answer.attestationObject,
            challenge: challenge
        )
        guard answer.credentialID == registered.credentialID else { throw .malformed("rawId is not the credential ID in the authenticator data") }
        return registered
    }

    /// §7.1: `clientDataJSON` and `attestationObject` of a `create()` answer to `challenge`.
    public func verifyRegistration(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]) throws(WebAuthnError) -> Registration {
        try checkClientData(clientDataJSON, type: ClientData.create, challenge: challenge)
        let object: CBOR
        do {
            object = try CBORDecoder.decode(attestationObject)
        } catch {
            throw .malformed("attestationObject: \(error)")
        }
        guard let format = object[text: "fmt"]?.text, let statement = object[text: "attStmt"], let authData = object[text: "authData"]?.bytes else {
            throw .malformed("attestationObject lacks fmt, attStmt or authData")
        }
        guard format == "none", statement == .map([]) else { throw .unsupportedAttestation(format) }
        let data = try AuthenticatorData(bytes: authData)
        try checkAuthenticatorData(data)
        guard let credential = data.attestedCredential else { throw .malformed("the authenticator data carries no attested credential") }
        return Registration(
            credentialID: credential.credentialID,
            publicKey: credential.publicKey,
            signCount: data.signCount,
            backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp)
        )
    }

    /// §7.2: a `get()` answer to `challenge`, signed by `publicKey`; `storedSignCount` and
    /// `storedBackupEligible` are what the RP kept from the credential's registration and last use.
    public func verifyAssertion(
        clientDataJSON: [UInt8],
        authenticatorData: [UInt8],
        signature: [UInt8],
        challenge: [UInt8],
        publicKey: COSEKey,
        storedSignCount: UInt32,
        storedBackupEligible: Bool
    ) throws(WebAuthnError) -> Assertion {
        try checkClientData(clientDataJSON, type: ClientData.get, challenge: challenge)
        let data = try AuthenticatorData(bytes: authenticatorData)
        try checkAuthenticatorData(data)
        // §7.2 step 18: BE is fixed when the credential is made; a change means another credential
        // source answers for it.
        guard data.flags.contains(.backupEligible) == storedBackupEligible else {
            throw .backupEligibilityChanged(stored: storedBackupEligible)
        }
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature), publicKey.publicKey.isValidSignature(parsed, for: signed)
        else { throw .badSignature }
        // A counter that does not grow (when either side uses one) may mean a cloned authenticator.
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount {
            throw .counterRollback(stored: storedSignCount, received: data.signCount)
        }
        return Assertion(signCount: data.signCount, backedUp: data.flags.contains(.backedUp))
    }

    private func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) {
        let clientData = try ClientData(json: json)
        guard clientData.type == type else { throw .wrongType(expected: type, got: clientData.type) }
        guard let received = Base64URL.decode(clientData.challenge), Array(received) == challenge else { throw .challengeMismatch }
        guard isOwnOrigin(clientData.origin) else { throw .originMismatch(clientData.origin) }
        if clientData.crossOrigin == true { throw .originMismatch("\(clientData.origin) (cross-origin)") }
    }

    private func checkAuthenticatorData(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard data.rpIDHash == Array(SHA256.hash(data: Data(id.utf8))) else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        if requiresUserVerification, !data.flags.contains(.userVerified) { throw .userNotVerified }
        if data.flags.contains(.backedUp), !data.flags.contains(.backupEligible) { throw .inconsistentBackupFlags }
    }
}
