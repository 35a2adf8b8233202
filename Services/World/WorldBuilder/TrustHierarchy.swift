import AppIdentity
import Foundation
import LabErrors
import WorldFile
import WorldLayout
import X509

/// The world's certificate authorities, as on Apple's platforms:
///
/// ```
/// KeychainLab Root CA (stands in for Apple Root CA)
/// ├── Developer Relations CA ── team signing certificates, the profile signer
/// └── Device CA ─────────────── device identities (mutual TLS)
/// KeychainLab Web Root CA (stands in for the public CAs devices trust)
/// └── Web CA ────────────────── TLS certificates of websites and services
/// ```
///
/// A second, untrusted hierarchy with the same names but other keys exists for refusal demos: a
/// verifier that checked names instead of signatures would be fooled by it.
struct TrustHierarchy {
    let root: Identity
    let developerCA: Identity
    let deviceCA: Identity
    let profileSigner: Identity
    let webRoot: Identity
    let webCA: Identity

    static func make(_ store: inout ArtifactStore, now: Date) throws(BuildError) -> TrustHierarchy {
        let root = try store.identity(
            WorldLayout.rootCA,
            subject: name("KeychainLab Root CA", unit: "Stands in for Apple Root CA"),
            profile: .root,
            issuer: nil,
            now: now
        )
        let developerCA = try store.identity(
            WorldLayout.developerCA,
            subject: name("KeychainLab Worldwide Developer Relations CA", unit: "Stands in for Apple WWDR CA"),
            profile: .intermediate,
            issuer: root,
            now: now
        )
        let webRoot = try store.identity(
            WorldLayout.webRootCA,
            subject: name("KeychainLab Web Root CA", unit: "Stands in for public web CAs"),
            profile: .root,
            issuer: nil,
            now: now
        )
        return TrustHierarchy(
            root: root,
            developerCA: developerCA,
            deviceCA: try store.identity(
                WorldLayout.deviceCA,
                subject: name("KeychainLab Device CA", unit: "Stands in for Apple iPhone Device CA"),
                profile: .intermediate,
                issuer: root,
                now: now
            ),
            profileSigner: try store.identity(
                WorldLayout.profileSigner,
                subject: name("KeychainLab Provisioning Profile Signing", unit: "Stands in for Apple iPhone OS Provisioning Profile Signing"),
                profile: .signer(.profileSigning),
                issuer: developerCA,
                now: now
            ),
            webRoot: webRoot,
            webCA: try store.identity(
                WorldLayout.webCA,
                subject: name("KeychainLab Web CA", unit: "Issues TLS certificates"),
                profile: .intermediate,
                issuer: webRoot,
                now: now
            )
        )
    }

    /// The look-alike hierarchy: same subjects, other keys, trusted by nobody.
    static func makeUntrusted(_ store: inout ArtifactStore, now: Date) throws(BuildError) -> (developerCA: Identity, profileSigner: Identity) {
        let root = try store.identity(
            "untrusted/root-ca.pem",
            subject: name("KeychainLab Root CA", unit: "Stands in for Apple Root CA"),
            profile: .root,
            issuer: nil,
            now: now
        )
        let developerCA = try store.identity(
            "untrusted/developer-ca.pem",
            subject: name("KeychainLab Worldwide Developer Relations CA", unit: "Stands in for Apple WWDR CA"),
            profile: .intermediate,
            issuer: root,
            now: now
        )
        let signer = try store.identity(
            "untrusted/profile-signing.pem",
            subject: name("KeychainLab Provisioning Profile Signing", unit: "Stands in for Apple iPhone OS Provisioning Profile Signing"),
            profile: .signer(.profileSigning),
            issuer: developerCA,
            now: now
        )
        return (developerCA, signer)
    }

    /// A web intermediate under the look-alike root, for a TLS certificate no device trusts.
    static func makeUntrustedWebCA(_ store: inout ArtifactStore, now: Date) throws(BuildError) -> Identity {
        let root = try store.identity(
            "untrusted/web-root-ca.pem",
            subject: name("KeychainLab Web Root CA", unit: "Stands in for public web CAs"),
            profile: .root,
            issuer: nil,
            now: now
        )
        return try store.identity(
            "untrusted/web-ca.pem",
            subject: name("KeychainLab Web CA", unit: "Issues TLS certificates"),
            profile: .intermediate,
            issuer: root,
            now: now
        )
    }

    /// A team's code-signing identity, named as Xcode shows it: `Apple Development: NAME (TEAMID)`.
    static func teamSigner(_ store: inout ArtifactStore, team: Team, path: String, issuer: Identity, now: Date) throws(BuildError) -> Identity {
        let subject: DistinguishedName
        do {
            subject = try DistinguishedName {
                CountryName("US")
                OrganizationName(team.name)
                OrganizationalUnitName(team.id.rawValue)
                CommonName("Apple Development: \(team.name) (\(team.id))")
            }
        } catch {
            throw BuildError(.signing, "cannot name the certificate of team \(team.id): \(error)", cause: error)
        }
        return try store.identity(path, subject: subject, profile: .signer(.teamSigning), issuer: issuer, now: now)
    }

    static func name(_ common: String, unit: String? = nil, organization: String = "KeychainLab") -> DistinguishedName {
        // These names are built from fixed or validated text, which X.509 accepts as UTF8String.
        try! DistinguishedName {
            CountryName("US")
            OrganizationName(organization)
            if let unit { OrganizationalUnitName(unit) }
            CommonName(common)
        }
    }
}
