import AppIdentity
import Crypto
import Foundation
import LabErrors
import SwiftASN1
import WorldLayout
import X509

/// A signing identity of the world: a certificate, its P-256 key, and the chain above it.
struct Identity {
    let certificate: Certificate
    let key: P256.Signing.PrivateKey
    /// The PEM of the certificate as stored.
    let pem: Data
    /// Intermediate certificates above it, PEM, nearest first; the root is never included.
    let chain: [Data]
    /// Whether this is a self-signed root.
    let isRoot: Bool

    var certificateDER: Data {
        var serializer = DER.Serializer()
        // Serializing a certificate that was parsed or built cannot fail.
        try! serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    var keyPEM: Data {
        Data(key.pemRepresentation.utf8)
    }

    /// The certificate followed by its intermediates, as TLS servers present them.
    var chainPEM: Data {
        chain.reduce(pem, +)
    }
}

/// What a certificate is for; each kind has its own extensions.
enum CertificateProfile: Hashable {
    /// A root CA (self-signed).
    case root
    /// An intermediate CA that may only issue end-entity certificates.
    case intermediate
    /// A signer of profiles or code, marked with its role. Its extended key usage lists S/MIME
    /// protection beside code signing so that `openssl cms -verify`, whose default purpose is
    /// S/MIME signing, accepts what it signs.
    case signer(CertificateRole)
    /// A client identity for mutual TLS, marked with its role: a device, or a system service
    /// (webcredentiald) acting for the devices. A device's certificate names its iCloud account
    /// as an email address (subject alternative name), so that keychaind learns the account from
    /// what it verifies, never from the device's report.
    case client(CertificateRole, iCloudAccount: String? = nil)
    /// A TLS server for these host names (and loopback addresses for services).
    case tlsServer(hosts: [String], loopback: Bool)

    var lifetimeDays: Int {
        switch self {
        case .root: 3650
        case .intermediate: 1825
        case .signer, .client, .tlsServer: 397
        }
    }

    func extensions(subjectKey: Certificate.PublicKey, issuerKey: Certificate.PublicKey) throws -> Certificate.Extensions {
        let subjectKeyID = SubjectKeyIdentifier(hash: subjectKey)
        let authorityKeyID = AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerKey).keyIdentifier)
        switch self {
        case .root:
            return try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                subjectKeyID
            }
        case .intermediate:
            return try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                subjectKeyID
                authorityKeyID
            }
        case .signer(let role):
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.codeSigning, .emailProtection])
                subjectKeyID
                authorityKeyID
                role.markerExtension
            }
        case .client(let role, let account):
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
                subjectKeyID
                authorityKeyID
                role.markerExtension
                if let account { SubjectAlternativeNames([.rfc822Name(account)]) }
            }
        case .tlsServer(let hosts, let loopback):
            var names = hosts.map(GeneralName.dnsName)
            if loopback {
                names.append(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])))
                names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))))
            }
            return try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
                subjectKeyID
                authorityKeyID
            }
        }
    }
}

extension ArtifactStore {
    /// The P-256 key at `path`, made once and then kept (mode 0600).
    mutating func key(_ path: String) throws(BuildError) -> P256.Signing.PrivateKey {
        let existing = try? Data(contentsOf: layout.url(path))
        let pem = try produce(path, fingerprint: "p256-key", permissions: 0o600) { () throws(BuildError) -> Data in
            if let existing, let key = try? P256.Signing.PrivateKey(pemRepresentation: String(decoding: existing, as: UTF8.self)) {
                // A key is never replaced while it can be read: that would change every signature.
                return Data(key.pemRepresentation.utf8)
            }
            return Data(P256.Signing.PrivateKey().pemRepresentation.utf8)
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: String(decoding: pem, as: UTF8.self))
        } catch {
            throw BuildError(.corruptArtifact, "\(layout.url(path).path) is not a P-256 private key; remove it to make a new one")
        }
    }

    /// The 256-bit symmetric key at `path`, made once and then kept (mode 0600).
    mutating func symmetricKey(_ path: String) throws(BuildError) -> Data {
        let existing = try? Data(contentsOf: layout.url(path))
        let key = try produce(path, fingerprint: "aes256-key", permissions: 0o600) { () throws(BuildError) -> Data in
            // Like a signing key, it is never replaced while it can be read: the cloud's
            // records sealed with it would no longer open.
            if let existing, existing.count == 32 { return existing }
            return SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        }
        guard key.count == 32 else {
            throw BuildError(.corruptArtifact, "\(layout.url(path).path) is not a 256-bit key; remove it to make a new one")
        }
        return key
    }

    /// The certificate at `path` for `subject`, issued by `issuer` (self-signed when `nil`), with
    /// its key beside it; kept while its inputs are unchanged and it has more than a day to live.
    /// An `expired` certificate (for refusal demos) was valid for a month and ended yesterday.
    mutating func identity(
        _ path: String,
        subject: DistinguishedName,
        profile: CertificateProfile,
        issuer: Identity?,
        now: Date,
        expired: Bool = false
    ) throws(BuildError) -> Identity {
        let key = try key(WorldLayout.key(for: path))
        let publicKey = Certificate.PublicKey(key.publicKey)
        let issuerDER = issuer?.certificateDER ?? Data()
        let fingerprint = Self.fingerprint([
            Data("certificate-v1".utf8), Data(subject.description.utf8), Data("\(profile)".utf8),
            issuerDER, key.publicKey.derRepresentation, Data((expired ? "expired" : "").utf8),
        ])
        let pem = try produce(
            path,
            fingerprint: fingerprint,
            isCurrent: { data in expired || Self.certificate(data).map { $0.notValidAfter > now.addingTimeInterval(86_400) } ?? false },
            make: { () throws(BuildError) -> Data in
                do {
                    let issuerKey = issuer.map { Certificate.PrivateKey($0.key) } ?? Certificate.PrivateKey(key)
                    let certificate = try Certificate(
                        version: .v3,
                        serialNumber: Certificate.SerialNumber(),
                        publicKey: publicKey,
                        notValidBefore: now.addingTimeInterval(expired ? -31 * 86_400 : -300),
                        notValidAfter: now.addingTimeInterval(expired ? -86_400 : Double(profile.lifetimeDays) * 86_400),
                        issuer: issuer?.certificate.subject ?? subject,
                        subject: subject,
                        signatureAlgorithm: .ecdsaWithSHA256,
                        extensions: try profile.extensions(subjectKey: publicKey, issuerKey: issuerKey.publicKey),
                        issuerPrivateKey: issuerKey
                    )
                    return Data((try certificate.serializeAsPEM().pemString + "\n").utf8)
                } catch {
                    throw BuildError(.signing, "cannot issue \(path): \(error)", cause: error)
                }
            }
        )
        guard let certificate = Self.certificate(pem) else {
            throw BuildError(.corruptArtifact, "\(layout.url(path).path) is not a PEM certificate; remove it to make a new one")
        }
        let chain = issuer.map { issuer in issuer.isRoot ? [] : [issuer.pem] + issuer.chain } ?? []
        return Identity(certificate: certificate, key: key, pem: pem, chain: chain, isRoot: issuer == nil)
    }

    private static func certificate(_ pem: Data) -> Certificate? {
        try? Certificate(pemEncoded: String(decoding: pem, as: UTF8.self))
    }
}
