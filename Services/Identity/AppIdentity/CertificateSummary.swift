import Crypto
public import Foundation
public import LabErrors
import X509

/// What a person checks of a certificate: who it names, who issued it, its serial number, its
/// SHA-1 and SHA-256 fingerprints (as Keychain Access and the developer portal show them) and its
/// validity.
public struct CertificateSummary: Codable, Hashable, Sendable {
    /// The subject, as RFC 4514 writes it.
    public var subject: String
    /// The subject's common name, such as `Apple Development: Jane Appleseed (ABCDE12345)`.
    public var commonName: String
    public var issuer: String
    /// The serial number, hexadecimal.
    public var serialNumber: String
    /// Fingerprints of the DER bytes, upper-case hexadecimal.
    public var sha1: String
    public var sha256: String
    public var notBefore: Date
    public var notAfter: Date

    /// Reads a DER certificate.
    public init(der: Data) throws(IdentityError) {
        let certificate = try Certificate(der: der)
        subject = certificate.subject.description
        commonName = certificate.commonName
        issuer = certificate.issuer.description
        serialNumber = certificate.serialNumber.bytes.map { String(format: "%02X", $0) }.joined()
        sha1 = Insecure.SHA1.hash(data: der).map { String(format: "%02X", $0) }.joined()
        sha256 = SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined()
        notBefore = certificate.notValidBefore
        notAfter = certificate.notValidAfter
    }

    /// Whether the certificate is valid at `date`.
    public func isValid(at date: Date) -> Bool {
        notBefore <= date && date <= notAfter
    }
}
