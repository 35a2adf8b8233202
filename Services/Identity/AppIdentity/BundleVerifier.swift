public import CMSSupport
import Crypto
public import Foundation
import LabErrors

/// Decides whether an app bundle may be installed: its signatures (``SignatureVerifier``), then
/// that the files on disk are the ones that were signed.
public struct BundleVerifier: Sendable {
    /// The signature checks.
    public let signatures: SignatureVerifier

    /// A verifier trusting `trust`.
    public init(trust: TrustStore) {
        signatures = SignatureVerifier(trust: trust)
    }

    /// Verifies the bundle at `url`; with `device`, also that a development profile provisions it;
    /// `platform` is the device's, which decides whether an app without a profile may install.
    public func verify(bundleAt url: URL, device: String? = nil, platform: Platform? = nil, at date: Date = Date()) -> InstallVerdict {
        let bundle: AppBundle
        do {
            bundle = try AppBundle(at: url)
        } catch {
            return InstallVerdict(appID: nil, teamID: nil, accessGroups: [], associatedDomains: [], reasons: [Refusal(.bundleLayout, error.message)])
        }
        return verify(bundle, device: device, platform: platform, at: date)
    }

    /// Verifies a bundle already read.
    public func verify(_ bundle: AppBundle, device: String? = nil, platform: Platform? = nil, at date: Date = Date()) -> InstallVerdict {
        let check = signatures.verify(bundle.signed, device: device, platform: platform, at: date)
        var reasons = check.refusals
        if let directory = check.codeDirectory {
            reasons += fileRefusals(bundle, directory)
        }
        return InstallVerdict(
            appID: check.appID?.rawValue,
            teamID: check.teamID?.rawValue,
            accessGroups: check.verified?.accessGroups ?? [],
            associatedDomains: check.verified?.associatedDomains ?? [],
            reasons: reasons,
            entitlements: check.verified?.entitlements,
            builtFor: check.verified?.builtFor
        )
    }

    /// The bundle's files must be the ones the code directory covers.
    private func fileRefusals(_ bundle: AppBundle, _ directory: CodeDirectory) -> [Refusal] {
        var refusals: [Refusal] = []
        if bundle.bundleIdentifier != directory.identifier.rawValue {
            refusals.append(
                Refusal(.applicationIdentifier, "Info.plist says \(bundle.bundleIdentifier), the signature \(directory.identifier)")
            )
        }
        if Data(SHA256.hash(data: bundle.infoPlist)) != directory.infoPlistDigest {
            refusals.append(Refusal(.modifiedAfterSigning, "Info.plist changed after signing"))
        }
        do {
            if try bundle.executableDigest() != directory.executableDigest {
                refusals.append(Refusal(.modifiedAfterSigning, "the executable \(bundle.executableName) is not the one that was signed"))
            }
        } catch {
            refusals.append(Refusal(.bundleLayout, error.message))
        }
        if let file = bundle.entitlementsFile {
            refusals += entitlementsFileRefusals(file, signed: directory.entitlements)
        }
        return refusals
    }

    /// The readable entitlements file must say exactly what the signature says.
    private func entitlementsFileRefusals(_ file: Data, signed: Entitlements) -> [Refusal] {
        guard let onDisk = try? Entitlements(propertyList: file) else {
            return [Refusal(.modifiedAfterSigning, "\(AppBundle.Layout.entitlements) is not a property list")]
        }
        guard onDisk != signed else { return [] }
        let keys = Set(onDisk.values.keys).union(signed.values.keys)
        let changed = keys.filter { onDisk[$0] != signed[$0] }.sorted()
        return [
            Refusal(
                .modifiedAfterSigning,
                "entitlements edited after signing: \(changed.joined(separator: ", ")) in \(AppBundle.Layout.entitlements) differ from the signed entitlements"
            )
        ]
    }
}
