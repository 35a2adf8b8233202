public import CMSSupport
public import Foundation
public import LabErrors

/// A provisioning profile as `kclab profile show` reads a real one (`.mobileprovision`,
/// `.provisionprofile`): the CMS envelope Apple signs, checked against its own content; the
/// property list inside; the signer, the certificates the envelope carries, and the developer
/// certificates the profile lists; and, with roots a user supplies, whether the signer chains to
/// them. Nothing here trusts a profile: the verdict says what was checked.
public struct ProfileInspection: Sendable {
    /// Whether the signer chains to the roots given.
    public enum Trust: Sendable, Hashable {
        /// No roots were given.
        case notChecked
        /// The chain found, leaf first.
        case trusted(chain: [CertificateSummary])
        /// Why there is no chain.
        case untrusted(reason: String)
    }

    public let profile: ProvisioningProfile
    /// The certificate that signed the envelope.
    public let signer: CertificateSummary
    /// Every certificate the envelope carries (the signer's intermediates, often an old root).
    public let carried: [CertificateSummary]
    /// The certificates that may sign apps under the profile.
    public let developerCertificates: [CertificateSummary]
    public let trust: Trust
    /// The date the profile's dates were checked at.
    public let date: Date

    /// Whether the envelope's signature matches its content; false for a profile changed after
    /// Apple signed it, whose fields are shown but can be trusted for nothing.
    public let signatureValid: Bool

    /// What to tell a person whose profile was changed after signing.
    public static let changedAfterSigning = "the profile was changed after Apple signed it: download it again"

    /// Opens `der` and reads the profile inside; `roots`, when given, are the only anchors. Throws,
    /// with a message in a person's words, when the file is not a signed profile (an entitlements
    /// file, JSON, a detached signature); a profile changed after signing opens with
    /// ``signatureValid`` false.
    public init(der: Data, roots: TrustStore?, at date: Date) throws(IdentityError) {
        let message: (content: Data, signer: Data, certificates: [Data])
        do {
            let verified = try SignedMessage(der: der)
            message = (verified.content, verified.signerCertificate, verified.certificates)
            signatureValid = true
        } catch {
            switch error.code {
            case .badSignature:
                guard let unverified = try? SignedMessage.unverifiedContent(der: der) else {
                    throw IdentityError(.malformedPropertyList, Self.changedAfterSigning, cause: error)
                }
                message = unverified
                signatureValid = false
            case .missingContent:
                throw IdentityError(.malformedPropertyList, "this is a detached signature: the profile is not inside it", cause: error)
            default:
                throw IdentityError(.malformedPropertyList, ProfileFileShape.notAProfile(der), cause: error)
            }
        }
        do {
            profile = try ProvisioningProfile(propertyList: message.content)
        } catch {
            throw IdentityError(.malformedPropertyList, "the signed file holds no provisioning profile: \(error.message)", cause: error)
        }
        signer = try CertificateSummary(der: message.signer)
        var carried: [CertificateSummary] = []
        for certificate in message.certificates { carried.append(try CertificateSummary(der: certificate)) }
        self.carried = carried
        var developers: [CertificateSummary] = []
        for certificate in profile.developerCertificates { developers.append(try CertificateSummary(der: certificate)) }
        developerCertificates = developers
        self.date = date
        guard let roots else {
            trust = .notChecked
            return
        }
        guard signatureValid else {
            trust = .untrusted(reason: "the signature does not match the content, so no chain vouches for it")
            return
        }
        switch roots.evaluate(message.signer, intermediates: message.certificates, at: date, purpose: .any) {
        case .trusted(let chain):
            var summaries: [CertificateSummary] = []
            for certificate in chain { summaries.append(try CertificateSummary(der: certificate)) }
            trust = .trusted(chain: summaries)
        case .untrusted(let reason):
            trust = .untrusted(reason: reason)
        }
    }

    /// Whether the profile is valid at ``date``: made before it, not expired.
    public var isCurrent: Bool { profile.isCurrent(at: date) }

    /// One line per check: the signature, the chain, and the dates.
    public var verdict: [String] {
        var lines = [
            signatureValid
                ? "signature: valid (the envelope's signer signed this content)"
                : "signature: NOT valid: \(Self.changedAfterSigning)"
        ]
        switch trust {
        case .notChecked: lines.append("chain: not checked (give --trust with the roots to trust, such as Apple's root certificates)")
        case .trusted(let chain): lines.append("chain: trusted, \(chain.map(\.commonName).joined(separator: " → "))")
        case .untrusted(let reason): lines.append("chain: NOT trusted: \(reason)")
        }
        let stamp = date.formatted(.iso8601)
        if date < profile.creationDate {
            lines.append("dates: NOT yet valid at \(stamp) (made \(profile.creationDate.formatted(.iso8601)))")
        } else if date > profile.expirationDate {
            lines.append("dates: EXPIRED at \(stamp) (on \(profile.expirationDate.formatted(.iso8601)))")
        } else {
            lines.append("dates: valid at \(stamp) (until \(profile.expirationDate.formatted(.iso8601)))")
        }
        return lines
    }
}
