public import SwiftASN1
public import X509

/// What a certificate in a KeychainLab world is for, marked by a private extension.
///
/// Apple marks its certificates the same way (an "iPhone Developer" certificate carries
/// 1.2.840.113635.100.6.1.2, say). KeychainLab uses its own arc under 2.999, the arc ITU-T
/// reserves for examples, so that its test CA never imitates Apple's real markers. A verifier
/// checks the marker, so a team's signing certificate can never pass as a profile signer or
/// as a device.
public enum CertificateRole: String, CaseIterable, Sendable, Codable {
    /// A team's code-signing certificate ("Apple Development: …").
    case teamSigning
    /// The certificate that signs provisioning profiles ("Apple iPhone OS Provisioning Profile Signing").
    case profileSigning
    /// A device's identity for mutual TLS ("Apple iPhone Device").
    case device
    /// A system service's identity for mutual TLS: webcredentiald, which reads and writes the saved
    /// website passwords of a device (as securityd does for its own agent) and asks associationd.
    case systemService
    /// The lab's operator (kclab): may read every keychain's item metadata through keychaind's
    /// admin route, and the items' data only when asked to reveal it.
    case administrator

    /// The marker extension's OID: 2.999.5322.1.n, in the branch KeychainLab picked for itself.
    public var oid: ASN1ObjectIdentifier {
        switch self {
        case .teamSigning: [2, 999, 5322, 1, 1]
        case .profileSigning: [2, 999, 5322, 1, 2]
        case .device: [2, 999, 5322, 1, 3]
        case .systemService: [2, 999, 5322, 1, 4]
        case .administrator: [2, 999, 5322, 1, 5]
        }
    }

    /// The marker extension to put in a certificate of this role (non-critical, value DER NULL).
    public var markerExtension: Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    /// Whether `certificate` carries this role's marker.
    public func isMarked(in certificate: Certificate) -> Bool {
        certificate.extensions[oid: oid] != nil
    }
}
