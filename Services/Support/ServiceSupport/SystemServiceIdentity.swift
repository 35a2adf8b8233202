public import AppIdentity
public import Foundation
public import NIOCore
import NIOSSL
import X509

/// A system service at the other end of a mutual-TLS connection (webcredentiald), read from its
/// verified certificate: it may act for any device, the way securityd's own agents do.
public struct SystemServiceIdentity: Hashable, Sendable {
    /// The service's name, the certificate's common name.
    public let name: String

    /// Reads a certificate; `nil` unless it carries `role`'s marker (the system-service role, or
    /// the administrator role of the lab's operator).
    public init?(certificateDER: Data, role: CertificateRole = .systemService) {
        guard let certificate = try? Certificate(der: certificateDER), role.isMarked(in: certificate) else {
            return nil
        }
        name = certificate.commonName
    }

    /// The system service (or, with `role: .administrator`, the operator) of a request's
    /// connection; TLS already verified the chain to the world's root, this adds the role check.
    public static func of(_ channel: any Channel, role: CertificateRole = .systemService) async -> SystemServiceIdentity? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get(), let der = try? certificate.toDERBytes() else {
            return nil
        }
        return SystemServiceIdentity(certificateDER: Data(der), role: role)
    }
}
