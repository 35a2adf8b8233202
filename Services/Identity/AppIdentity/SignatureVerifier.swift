public import CMSSupport
import Crypto
public import Foundation
import LabErrors
import X509

/// Checks an app's profile and code signature against the trusted roots, the way a device does at
/// install and keychaind does on every call: the answer is a ``SignatureCheck`` with reasons,
/// never a thrown error.
public struct SignatureVerifier: Sendable {
    /// The roots standing in for Apple's.
    public let trust: TrustStore

    /// A verifier trusting `trust`.
    public init(trust: TrustStore) {
        self.trust = trust
    }

    /// Verifies `app` at `date`; with `device`, also that a development profile provisions it. An
    /// app without a profile is accepted only for a `platform` of `.macos` (Developer ID signing).
    public func verify(_ app: SignedApp, device: String? = nil, platform: Platform? = nil, at date: Date = Date()) -> SignatureCheck {
        if app.profile.isEmpty {
            return verifyWithoutProfile(app, platform: platform, at: date)
        }
        var check = SignatureCheck()
        guard let profile = verifyProfile(app.profile, device: device, at: date, into: &check) else {
            return check
        }
        check.teamID = profile.teamID
        guard let directory = verifyCodeSignature(app, profile: profile, at: date, into: &check) else {
            return check
        }
        check.codeDirectory = directory
        check.refusals += EntitlementPolicy.violations(of: directory.entitlements, allowedBy: profile)
        let appID = checkApplicationIdentifier(directory, profile: profile, into: &check)
        check.appID = appID
        if check.refusals.isEmpty, let appID, let teamID = profile.teamID {
            check.verified = VerifiedApp(
                appID: appID,
                teamID: teamID,
                entitlements: directory.entitlements,
                profile: profile,
                codeDirectory: directory
            )
        }
        return check
    }

    /// A Mac app signed with its team's certificate and no provisioning profile, as Developer ID
    /// apps are: the code signature must hold, and its entitlements stay unvalidated (securityd then
    /// honours only `keychain-access-groups`; ``VerifiedApp/accessGroups``). A device that is not a Mac
    /// refuses it, as iOS installs nothing without a profile.
    private func verifyWithoutProfile(_ app: SignedApp, platform: Platform?, at date: Date) -> SignatureCheck {
        var check = SignatureCheck()
        if platform != .macos {
            let detail =
                platform == nil
                ? "the bundle has no provisioning profile: only a Mac installs such an app (say which platform)"
                : "the bundle has no provisioning profile, and an \(platform!) device installs no app without one"
            check.refusals.append(Refusal(.profileRequired, detail))
        }
        guard let (message, directory) = readCodeSignature(app, at: date, into: &check) else { return check }
        let signerTeam = (try? Certificate(der: message.signerCertificate))?.teamID
        check.codeDirectory = directory
        check.teamID = signerTeam
        if directory.teamIdentifier != signerTeam {
            check.refusals.append(
                Refusal(
                    .codeSignatureTrust,
                    "the code signature names team \(directory.teamIdentifier), its certificate team \(signerTeam?.rawValue ?? "none")"
                )
            )
        }
        if Data(SHA256.hash(data: Data())) != directory.profileDigest {
            check.refusals.append(Refusal(.modifiedAfterSigning, "embedded.mobileprovision was removed after signing"))
        }
        // The identity the lab files the app under: the claimed identifier when it reads as one,
        // else the team and bundle ID. Unvalidated, it grants no access group either way.
        let appID =
            directory.entitlements.applicationIdentifier.flatMap { try? AppID($0) }
            ?? AppID(prefix: directory.teamIdentifier, bundleID: directory.identifier)
        check.appID = appID
        if check.refusals.isEmpty, let signerTeam {
            check.verified = VerifiedApp(
                appID: appID,
                teamID: signerTeam,
                entitlements: directory.entitlements,
                profile: nil,
                codeDirectory: directory
            )
        }
        return check
    }

    private func verifyProfile(
        _ der: Data,
        device: String?,
        at date: Date,
        into check: inout SignatureCheck
    ) -> ProvisioningProfile? {
        let message: SignedMessage
        do {
            message = try SignedMessage(der: der)
        } catch {
            check.refusals.append(Refusal(.profileSignature, "the embedded profile is not validly signed: \(error.message)"))
            return nil
        }
        check.refusals += signerRefusals(message, role: .profileSigning, rule: .profileTrust, what: "the profile", at: date)
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfile(propertyList: message.content)
        } catch {
            check.refusals.append(Refusal(.profileSignature, "the signed profile cannot be read: \(error.message)"))
            return nil
        }
        if date < profile.creationDate {
            check.refusals.append(
                Refusal(.profileDates, "the profile '\(profile.name)' is not valid before \(profile.creationDate.formatted(.iso8601))")
            )
        } else if date > profile.expirationDate {
            check.refusals.append(Refusal(.profileDates, "the profile '\(profile.name)' expired on \(profile.expirationDate.formatted(.iso8601))"))
        }
        if let device, !profile.provisions(device: device) {
            check.refusals.append(
                Refusal(.deviceNotProvisioned, "the development profile '\(profile.name)' does not list device \(device)")
            )
        }
        return profile
    }

    private func verifyCodeSignature(
        _ app: SignedApp,
        profile: ProvisioningProfile,
        at date: Date,
        into check: inout SignatureCheck
    ) -> CodeDirectory? {
        guard let (message, directory) = readCodeSignature(app, at: date, into: &check) else { return nil }
        if !profile.developerCertificates.contains(message.signerCertificate) {
            let signer = try? Certificate(der: message.signerCertificate)
            let name = signer.map { "'\($0.commonName)'" } ?? "its certificate"
            check.refusals.append(
                Refusal(
                    .signerNotInProfile,
                    "the code signature is by \(name), which the profile of team \(profile.teamID?.rawValue ?? "?") does not list"
                )
            )
        }
        if directory.teamIdentifier != profile.teamID {
            check.refusals.append(
                Refusal(
                    .signerNotInProfile,
                    "the code signature names team \(directory.teamIdentifier), the profile team \(profile.teamID?.rawValue ?? "?")"
                )
            )
        }
        if Data(SHA256.hash(data: app.profile)) != directory.profileDigest {
            check.refusals.append(Refusal(.modifiedAfterSigning, "embedded.mobileprovision is not the profile the app was signed with"))
        }
        return directory
    }

    /// The code signature's CMS message, checked as a team certificate's, and the code directory
    /// it signs; `nil` (with the refusal) when either cannot be read.
    private func readCodeSignature(
        _ app: SignedApp,
        at date: Date,
        into check: inout SignatureCheck
    ) -> (SignedMessage, CodeDirectory)? {
        let message: SignedMessage
        do {
            message = try SignedMessage(der: app.codeSignature)
        } catch {
            check.refusals.append(Refusal(.codeSignature, "the code signature is not valid: \(error.message)"))
            return nil
        }
        check.refusals += signerRefusals(message, role: .teamSigning, rule: .codeSignatureTrust, what: "the code signature", at: date)
        do {
            return (message, try CodeDirectory(propertyList: message.content))
        } catch {
            check.refusals.append(Refusal(.codeSignature, "the signed code directory cannot be read: \(error.message)"))
            return nil
        }
    }

    /// The chain and role checks every signer must pass.
    private func signerRefusals(
        _ message: SignedMessage,
        role: CertificateRole,
        rule: Refusal.Rule,
        what: String,
        at date: Date
    ) -> [Refusal] {
        let certificate = try? Certificate(der: message.signerCertificate)
        let name = certificate.map { "'\($0.commonName)'" } ?? "an unreadable certificate"
        var refusals: [Refusal] = []
        if case .untrusted(let reason) = trust.evaluate(message.signerCertificate, intermediates: message.certificates, at: date) {
            refusals.append(Refusal(rule, "\(what) is signed by \(name), which is not trusted: \(reason)"))
        }
        if let certificate, !role.isMarked(in: certificate) {
            refusals.append(Refusal(rule, "\(what) is signed by \(name), which is not a \(role.title) certificate"))
        }
        return refusals
    }

    /// The application identifier must be one of the profile's prefixes followed by the bundle ID.
    private func checkApplicationIdentifier(
        _ directory: CodeDirectory,
        profile: ProvisioningProfile,
        into check: inout SignatureCheck
    ) -> AppID? {
        guard let claimed = directory.entitlements.applicationIdentifier else {
            check.refusals.append(Refusal(.applicationIdentifier, "the signature carries no application-identifier entitlement"))
            return nil
        }
        guard let appID = try? AppID(claimed) else {
            check.refusals.append(Refusal(.applicationIdentifier, "'\(claimed)' is not an application identifier"))
            return nil
        }
        if !profile.applicationIdentifierPrefixes.contains(appID.prefix) {
            let allowed = profile.applicationIdentifierPrefixes.map(\.rawValue).joined(separator: ", ")
            check.refusals.append(Refusal(.applicationIdentifier, "'\(claimed)' does not start with the profile's prefix (\(allowed))"))
        }
        if appID.bundleID != directory.identifier {
            check.refusals.append(
                Refusal(.applicationIdentifier, "'\(claimed)' does not end with the signed bundle ID \(directory.identifier)")
            )
        }
        return appID
    }
}

/// The outcome of ``SignatureVerifier/verify(_:device:at:)``: the verified app, or the reasons it is not.
public struct SignatureCheck: Hashable, Sendable {
    /// Set only when every rule passed.
    public var verified: VerifiedApp?
    /// Every rule that failed.
    public var refusals: [Refusal] = []
    /// The application identifier the signature claims, when it could be read.
    public var appID: AppID?
    /// The profile's team, when the profile could be read.
    public var teamID: TeamID?
    /// What the code signature covers, when it could be read, so callers can check the files.
    public var codeDirectory: CodeDirectory?

    /// An empty check.
    public init() {}
}

extension CertificateRole {
    /// A name for messages.
    var title: String {
        switch self {
        case .teamSigning: "team code-signing"
        case .profileSigning: "provisioning-profile signing"
        case .device: "device identity"
        case .systemService: "system service identity"
        case .administrator: "lab administrator identity"
        }
    }
}
