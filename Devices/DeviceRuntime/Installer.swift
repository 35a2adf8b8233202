import AppIdentity
import CMSSupport
import Foundation
import WorldBuilder
import WorldFile

/// Installs a device's apps as iOS does: each bundle is verified (chain, profile, device list,
/// entitlements, digests) before it is copied in; a bundle that fails is refused with its reasons.
struct Installer {
    let verifier: BundleVerifier
    let layout: WorldLayout
    let destination: URL
    let udid: String

    struct Installed: Sendable {
        let bundleID: String
        let bundle: AppBundle
        let verdict: InstallVerdict
        let getTaskAllow: Bool
    }

    /// Verifies and copies each app; returns those installed and the refusals.
    func install(_ apps: [BundleID]) throws -> (installed: [Installed], refused: [String: [String]]) {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var installed: [Installed] = []
        var refused: [String: [String]] = [:]
        for bundleID in apps {
            let source = layout.url(WorldLayout.bundle(bundleID))
            let target = destination.appending(path: "\(bundleID).app")
            try? FileManager.default.removeItem(at: target)
            // Copy first, then verify the copy: what is checked is exactly what will run.
            do {
                try FileManager.default.copyItem(at: source, to: target)
            } catch {
                refused[bundleID.rawValue] = ["bundle-layout: the bundle cannot be read: \(error.localizedDescription)"]
                continue
            }
            let verdict = verifier.verify(bundleAt: target, device: udid)
            guard verdict.valid, let bundle = try? AppBundle(at: target) else {
                refused[bundleID.rawValue] = verdict.reasons.map(\.description)
                try? FileManager.default.removeItem(at: target)
                continue
            }
            let getTaskAllow = verdict.entitlements?.getTaskAllow ?? false
            installed.append(Installed(bundleID: bundleID.rawValue, bundle: bundle, verdict: verdict, getTaskAllow: getTaskAllow))
        }
        return (installed, refused)
    }
}
