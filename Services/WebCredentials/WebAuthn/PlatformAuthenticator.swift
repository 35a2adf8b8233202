public import Crypto
import Foundation

/// What a device's platform authenticator writes for a passkey (Apple's: ES256, attestation
/// `none`, user present and verified, backup eligible and backed up because the key syncs with
/// the iCloud keychain, and a sign counter that stays 0).
public enum PlatformAuthenticator {
    /// Attestation `none` carries no authenticator model: the AAGUID is zeros.
    public static let aaguid = [UInt8](repeating: 0, count: 16)
    public static let flags: AuthenticatorData.Flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
    /// The transports a client reports for such a passkey, as Safari does: `internal` (the
    /// device's own authenticator) and `hybrid` (the phone answering for a nearby computer).
    public static let transports = ["hybrid", "internal"]
    /// The `authenticatorAttachment` of its answers: the device's own authenticator.
    public static let attachment = "platform"

    /// The answer to `create()`: clientDataJSON and the attestation object.
    public static func register(
        rpID: String,
        origin: String,
        challenge: [UInt8],
        credentialID: [UInt8],
        key: P256.Signing.PrivateKey
    ) -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        let clientData = ClientData(type: ClientData.create, challenge: challenge, origin: origin).json
        let authData = AuthenticatorData(
            rpIDHash: Array(SHA256.hash(data: Data(rpID.utf8))),
            flags: flags.union(.attestedCredentialData),
            signCount: 0,
            attestedCredential: .init(aaguid: aaguid, credentialID: credentialID, publicKey: COSEKey(key.publicKey))
        )
        let object = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData.bytes))])
        return (clientData, object.encoded())
    }

    /// The answer to `get()`: clientDataJSON, the authenticator data and the DER signature over
    /// the authenticator data followed by SHA-256 of clientDataJSON.
    public static func assert(
        rpID: String,
        origin: String,
        challenge: [UInt8],
        key: P256.Signing.PrivateKey,
        signCount: UInt32 = 0
    ) throws -> (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        let clientData = ClientData(type: ClientData.get, challenge: challenge, origin: origin).json
        let authData = AuthenticatorData(rpIDHash: Array(SHA256.hash(data: Data(rpID.utf8))), flags: flags, signCount: signCount).bytes
        let signature = try key.signature(for: authData + Array(SHA256.hash(data: clientData)))
        return (clientData, authData, Array(signature.derRepresentation))
    }
}
