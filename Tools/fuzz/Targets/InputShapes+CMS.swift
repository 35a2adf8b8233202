import CMSSupport
import Crypto
import Foundation
import SwiftASN1
import Synchronization
import X509

extension InputShape {
    /// A CMS SignedData message carrying `n` distinct certificates beside its signer's: the "many
    /// certificates in an envelope" shape (a verifier may build chains from any of them).
    static let cms: [InputShape] = [
        InputShape(bytes: "many certificates") { count in
            let certificates = CertificatePool.shared.first(count)
            guard let signer = CertificatePool.shared.signer,
                let message = try? CMSSigner(certificatePEM: signer.certificate, privateKeyPEM: signer.key, chainPEM: certificates)
                    .sign(Data("shape".utf8))
            else { return [] }
            return Array(message)
        }
    ]
}

/// Self-signed certificates made once and reused: the complexity check asks for the first N and
/// then the first 8N.
final class CertificatePool: Sendable {
    static let shared = CertificatePool()
    let signer: (certificate: Data, key: Data)?
    private let made = Mutex<[Data]>([])

    private init() {
        signer = Self.make("signer").map { ($0.certificate, $0.key) }
    }

    func first(_ count: Int) -> [Data] {
        made.withLock { made in
            while made.count < count, let next = Self.make("c\(made.count)") { made.append(next.certificate) }
            return Array(made.prefix(count))
        }
    }

    private static func make(_ name: String) -> (certificate: Data, key: Data)? {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        guard let subject = try? DistinguishedName(builder: { CommonName(name) }),
            let certificate = try? Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-60),
                notValidAfter: now.addingTimeInterval(3600),
                issuer: subject,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions(),
                issuerPrivateKey: Certificate.PrivateKey(key)
            ),
            let pem = try? certificate.serializeAsPEM().pemString
        else { return nil }
        return (Data(pem.utf8), Data(key.pemRepresentation.utf8))
    }
}
