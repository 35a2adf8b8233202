public import Foundation
public import LabErrors
public import SwiftASN1
public import X509

extension Certificate {
    /// Parses a DER certificate.
    public init(der: Data) throws(IdentityError) {
        do {
            self = try Certificate(derEncoded: Array(der))
        } catch {
            throw IdentityError(.malformedCertificate, "not a DER certificate: \(error)", cause: error)
        }
    }

    /// The first value of `attribute` in the subject, such as the common name.
    public func subjectValue(_ attribute: ASN1ObjectIdentifier) -> String? {
        for rdn in subject {
            for element in rdn where element.type == attribute {
                return String(describing: element.value)
            }
        }
        return nil
    }

    /// The team a signing certificate belongs to: its subject's organizational unit, as Apple writes it.
    public var teamID: TeamID? {
        subjectValue(.RDNAttributeType.organizationalUnitName).flatMap { try? TeamID($0) }
    }

    /// The subject's common name, for messages.
    public var commonName: String {
        subjectValue(.RDNAttributeType.commonName) ?? subject.description
    }
}
