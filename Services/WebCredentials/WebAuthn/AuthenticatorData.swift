import Foundation

/// The authenticator data (WebAuthn §6.1): RP ID hash, flags, sign counter, and at registration
/// the attested credential (AAGUID, credential ID, COSE public key).
public struct AuthenticatorData: Hashable, Sendable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// User present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// User verified.
        public static let userVerified = Flags(rawValue: 0x04)
        /// Backup eligible: a multi-device credential (a passkey that syncs).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// Backed up now.
        public static let backedUp = Flags(rawValue: 0x10)
        /// Attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// Extensions follow.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    public struct AttestedCredential: Hashable, Sendable {
        public var aaguid: [UInt8]
        public var credentialID: [UInt8]
        public var publicKey: COSEKey

        public init(aaguid: [UInt8], credentialID: [UInt8], publicKey: COSEKey) {
            self.aaguid = aaguid
            self.credentialID = credentialID
            self.publicKey = publicKey
        }
    }

    /// Credential IDs are at most 1023 bytes (WebAuthn §4).
    public static let maximumCredentialIDLength = 1023

    public var rpIDHash: [UInt8]
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredential: AttestedCredential?

    public init(rpIDHash: [UInt8], flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil) {
        self.rpIDHash = rpIDHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredential = attestedCredential
    }

    /// Reads authenticator data from untrusted bytes.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data is \(bytes.count) bytes, fewer than 37") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed("attested credential data is cut short") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length <= Self.maximumCredentialIDLength, bytes.count >= offset + length else {
                throw .malformed("the credential ID length \(length) is too long or runs past the end")
            }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            let key: CBOR
            let used: Int
            do {
                (key, used) = try CBORDecoder.decodePrefix(Array(bytes[offset...]))
            } catch {
                throw .malformed("the credential public key: \(error)")
            }
            offset += used
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(cbor: key))
        }
        if flags.contains(.extensionData) {
            do {
                let (_, used) = try CBORDecoder.decodePrefix(Array(bytes[offset...]))
                offset += used
            } catch {
                throw .malformed("the extensions: \(error)")
            }
        }
        guard offset == bytes.count else { throw .malformed("\(bytes.count - offset) bytes follow the authenticator data") }
    }

    /// The bytes, as an authenticator writes them.
    public var bytes: [UInt8] {
        var out = rpIDHash + [flags.rawValue] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> ($0 * 8)) }
        if let credential = attestedCredential {
            out += credential.aaguid
            out += [UInt8(credential.credentialID.count >> 8), UInt8(truncatingIfNeeded: credential.credentialID.count)]
            out += credential.credentialID
            out += credential.publicKey.cbor.encoded()
        }
        return out
    }
}
