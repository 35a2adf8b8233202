import AppIdentity
public import Foundation
import KeychainAPI
import LabErrors
import SiteAssociation
import WebCredentialAPI
import WorldLayout

/// The app every device of a fleet installs: a signed bundle of the built world whose profile
/// provisions every device (a distribution profile: a development profile lists its devices,
/// and no minted fleet device is on the list). Its signed files are what each device registers
/// with keychaind, which verifies them itself.
public struct FleetApp: Sendable {
    public let bundleID: String
    let registration: KeychainAPI.AppRegistration
    /// Its display name, for webcredentiald's prompts.
    let name: String
    /// The hosts of its exact `webcredentials` entries (a wildcard names no host to ask about).
    let webCredentialHosts: [String]

    /// The app as webcredentiald hears of it from a fleet device (an iPhone on the fleet's release).
    func caller(passwordAutoFill: Bool) -> WebCredentialAPI.Caller {
        WebCredentialAPI.Caller(
            profile: registration.profile,
            codeSignature: registration.codeSignature,
            appName: name,
            platform: .ios,
            osVersion: FleetDeviceApp.osVersion,
            passwordAutoFill: passwordAutoFill
        )
    }

    public struct Unusable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The app `bundleID` of the world built at `world`, or (nil) its first app, by bundle ID
    /// (Apple's last), whose profile provisions every device.
    public init(world: URL, bundleID: String?) throws(Unusable) {
        let layout = WorldLayout(root: world)
        let candidates: [String]
        if let bundleID {
            candidates = [bundleID]
        } else {
            let apps = (try? FileManager.default.contentsOfDirectory(atPath: layout.url("apps").path)) ?? []
            // A team's own app before one of Apple's (Safari, in a world that has it).
            candidates = apps.filter { $0.hasSuffix(".app") }.map { String($0.dropLast(4)) }
                .sorted { (Self.isApple($0), $0) < (Self.isApple($1), $1) }
        }
        var reasons: [String] = []
        for candidate in candidates {
            switch Self.read(candidate, layout: layout) {
            case .success(let (registration, name, hosts)):
                self.bundleID = candidate
                self.registration = registration
                self.name = name
                webCredentialHosts = hosts
                return
            case .failure(let reason):
                reasons.append(reason.description)
            }
        }
        if let bundleID {
            throw Unusable(description: reasons.first ?? "\(bundleID) cannot be used")
        }
        throw Unusable(
            description: "the world has no app every device may run (one with a distribution profile): "
                + (reasons.isEmpty ? "it has no apps" : reasons.joined(separator: "; "))
        )
    }

    private static func isApple(_ bundleID: String) -> Int {
        bundleID.hasPrefix("com.apple.") ? 1 : 0
    }

    private static func read(_ bundleID: String, layout: WorldLayout) -> Result<(KeychainAPI.AppRegistration, String, [String]), Unusable> {
        guard let id = try? BundleID(bundleID) else { return .failure(Unusable(description: "'\(bundleID.prefix(80))' is not a bundle ID")) }
        let bundle: AppBundle
        do {
            bundle = try AppBundle(at: layout.url(WorldLayout.bundle(id)))
        } catch {
            return .failure(Unusable(description: "\(bundleID) is not an app of the world: \(error.message)"))
        }
        let profile: ProvisioningProfile
        do {
            profile = try ProfileInspection(der: bundle.signed.profile, roots: nil, at: Date()).profile
        } catch {
            return .failure(Unusable(description: "\(bundleID)'s profile cannot be read: \(error.message)"))
        }
        if let devices = profile.provisionedDevices {
            return .failure(Unusable(description: "\(bundleID)'s profile is a development profile for \(devices.count) listed devices"))
        }
        let entitlements = bundle.entitlementsFile.flatMap { try? Entitlements(propertyList: $0) } ?? Entitlements()
        let hosts = entitlements.associatedDomains.compactMap { entry -> String? in
            guard let domain = try? AssociatedDomain(entry), domain.service == .webcredentials, !domain.isWildcard else { return nil }
            return domain.host
        }
        return .success(
            (KeychainAPI.AppRegistration(profile: bundle.signed.profile, codeSignature: bundle.signed.codeSignature), bundle.displayName, hosts)
        )
    }
}
