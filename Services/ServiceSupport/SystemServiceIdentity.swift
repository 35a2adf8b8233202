import AppIdentity
public import Foundation
public import NIOCore
import NIOSSL
import X509

/// A system service at the other end of a mutual-TLS connection (webcredentiald), read from its
/// verified certificate: it may act for any device, the way securityd's own agents do.
public struct SystemServiceIdentity: Hashable, Sendable {
    /// The service's name, the certificate's common name.
    public let name: String

    /// Reads a certificate; `nil` unless it carries the system-service role marker.
    public init?(certificateDER: Data) {
        guard let certificate = try? Certificate(der: certificateDER), CertificateRole.systemService.isMarked(in: certificate) else {
            return nil
        }
        name = certificate.commonName
    }

    /// The system service of a request's connection; TLS already verified the chain to the
    /// world's root, this adds the role check.
    public static func of(_ channel: any Channel) async -> SystemServiceIdentity? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get(), let der = try? certificate.toDERBytes() else {
            return nil
        }
        return SystemServiceIdentity(certificateDER: Data(der))
    }
}
