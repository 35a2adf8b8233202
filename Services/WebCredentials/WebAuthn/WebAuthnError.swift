/// Why a relying party refuses a WebAuthn response: each check a real RP makes has its own case,
/// named in the website's answers and logs.
public enum WebAuthnError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(String)
    case unsupportedKey(String)
    case wrongType(expected: String, got: String)
    case challengeMismatch
    case originMismatch(String)
    case rpIDMismatch
    case userNotPresent
    case userNotVerified
    case inconsistentBackupFlags
    case backupEligibilityChanged(stored: Bool)
    case credentialIDMismatch
    case unsupportedAttestation(String)
    case unknownCredential
    case badSignature
    case counterRollback(stored: UInt32, received: UInt32)

    /// A stable code for APIs and logs.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedKey: "unsupported_key"
        case .wrongType: "wrong_type"
        case .challengeMismatch: "challenge_mismatch"
        case .originMismatch: "origin_mismatch"
        case .rpIDMismatch: "rp_id_mismatch"
        case .userNotPresent: "user_not_present"
        case .userNotVerified: "user_not_verified"
        case .inconsistentBackupFlags: "backup_flags"
        case .backupEligibilityChanged: "backup_eligibility_changed"
        case .credentialIDMismatch: "credential_id_mismatch"
        case .unsupportedAttestation: "unsupported_attestation"
        case .unknownCredential: "unknown_credential"
        case .badSignature: "bad_signature"
        case .counterRollback: "counter_rollback"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let what): "the response is malformed: \(what)"
        case .unsupportedKey(let what): "the credential key is not ES256: \(what)"
        case .wrongType(let expected, let got): "clientDataJSON.type is \(got), not \(expected)"
        case .challengeMismatch: "clientDataJSON.challenge is not the challenge this ceremony issued"
        case .originMismatch(let origin): "clientDataJSON.origin \(origin) is not an origin of this relying party"
        case .rpIDMismatch: "the authenticator data's RP ID hash is not SHA-256 of this relying party's ID"
        case .userNotPresent: "the authenticator data's UP flag is not set: no user was present"
        case .userNotVerified: "the authenticator data's UV flag is not set, and this relying party requires user verification"
        case .inconsistentBackupFlags: "the BS flag is set without BE: a credential that cannot be backed up claims it is"
        case .backupEligibilityChanged(let stored):
            "the BE flag is \(!stored ? "set" : "clear"), but was \(stored ? "set" : "clear") when the passkey was registered"
        case .credentialIDMismatch: "the credential's id is not its rawId in base64url without padding"
        case .unsupportedAttestation(let format): "attestation format \(format) is not accepted (this relying party asks for none)"
        case .unknownCredential: "no passkey with this credential ID is registered here"
        case .badSignature: "the signature does not verify with the registered public key"
        case .counterRollback(let stored, let received):
            "the sign counter went from \(stored) to \(received): the authenticator may be cloned"
        }
    }
}
