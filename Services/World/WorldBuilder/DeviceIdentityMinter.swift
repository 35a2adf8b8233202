import AppIdentity
import Crypto
public import Foundation
import SwiftASN1
import WorldLayout
import X509

/// Device identities made on demand from a built world's device CA, in memory, for devices the
/// world describes by pattern (a fleet of thousands: `kclab fleet`) rather than one by one. Each
/// is what the world builder writes for a listed device: a fresh P-256 key and a certificate
/// with the device role's marker, the device's name and UDID, and its iCloud account, issued by
/// the device CA, so every service verifies it as it verifies any device.
public struct DeviceIdentityMinter: Sendable {
    private let issuer: Certificate
    private let issuerKey: P256.Signing.PrivateKey
    private let issuerPEM: String

    /// A device's certificate chain (its certificate, then the device CA), PEM, and its key, PEM.
    public struct Minted: Sendable {
        public let chainPEM: String
        public let keyPEM: String
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads the device CA of the built world at `world`.
    public init(world: URL) throws {
        let layout = WorldLayout(root: world)
        do {
            issuerPEM = try String(contentsOf: layout.url(WorldLayout.deviceCA), encoding: .utf8)
            issuer = try Certificate(pemEncoded: issuerPEM)
            issuerKey = try P256.Signing.PrivateKey(
                pemRepresentation: String(contentsOf: layout.url(WorldLayout.key(for: WorldLayout.deviceCA)), encoding: .utf8)
            )
        } catch {
            throw Unreadable(description: "the world's device CA cannot be read from \(world.path): \(error)")
        }
    }

    /// A new identity for the device `name` with `udid`, signed in to `account` (nil: none).
    public func mint(name: String, udid: String, account: String?, now: Date = Date()) throws -> Minted {
        let key = P256.Signing.PrivateKey()
        let profile = CertificateProfile.client(.device, iCloudAccount: account)
        let publicKey = Certificate.PublicKey(key.publicKey)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: now.addingTimeInterval(Double(profile.lifetimeDays) * 86_400),
            issuer: issuer.subject,
            subject: TrustHierarchy.name(udid, unit: name, organization: "KeychainLab Devices"),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try profile.extensions(subjectKey: publicKey, issuerKey: Certificate.PublicKey(issuerKey.publicKey)),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
        return Minted(chainPEM: try certificate.serializeAsPEM().pemString + "\n" + issuerPEM, keyPEM: key.pemRepresentation)
    }
}
