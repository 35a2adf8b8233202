import AppIdentity
import CMSSupport
import Foundation
import WorldFile
import WorldLayout

/// Installs a device's apps as iOS does: each bundle is verified (chain, profile, device list,
/// entitlements, digests) before it is copied in; a bundle that fails is refused with its reasons.
struct Installer {
    let verifier: BundleVerifier
    let layout: WorldLayout
    let destination: URL
    /// The device's ID in the world and its UDID: the ID picks each app's own user (``AppUser``).
    let deviceID: String
    let udid: String
    /// The device's platform: a Mac installs apps signed without a profile, iOS does not.
    let platform: Platform
    /// The apps whose Mac build this device installs instead of their iOS build (on a Mac, those
    /// the world builds for both platforms; elsewhere none).
    let macBuilds: Set<BundleID>

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
            switch install(bundleID, from: source(bundleID)) {
            case .success(let app): installed.append(app)
            case .failure(let refusal): refused[bundleID.rawValue] = refusal.reasons
            }
        }
        return (installed, refused)
    }

    /// Verifies and installs the later version of `bundleID` (`apps/updates/`) over the current one.
    /// A refused update leaves the installed version as it was.
    func installUpdate(_ bundleID: BundleID) -> Result<Installed, Refusal> {
        let source = source(bundleID, update: true)
        guard FileManager.default.fileExists(atPath: layout.url(source).path) else {
            return .failure(Refusal(reasons: ["the world declares no update of \(bundleID)"]))
        }
        let staging = destination.appending(path: ".staging")
        let stager = Installer(
            verifier: verifier,
            layout: layout,
            destination: staging,
            deviceID: deviceID,
            udid: udid,
            platform: platform,
            macBuilds: macBuilds
        )
        switch stager.install(bundleID, from: source) {
        case .failure(let refusal):
            return .failure(refusal)
        case .success(let staged):
            let target = destination.appending(path: "\(bundleID).app")
            do {
                // Set the old version aside, move the verified one in, then drop the old one.
                let previous = staging.appending(path: "\(bundleID).previous")
                try? FileManager.default.removeItem(at: previous)
                try FileManager.default.moveItem(at: target, to: previous)
                do {
                    try FileManager.default.moveItem(at: staged.bundle.url, to: target)
                } catch {
                    try? FileManager.default.moveItem(at: previous, to: target)
                    throw error
                }
                try? FileManager.default.removeItem(at: previous)
                let bundle = try AppBundle(at: target)
                return .success(Installed(bundleID: staged.bundleID, bundle: bundle, verdict: staged.verdict, getTaskAllow: staged.getTaskAllow))
            } catch {
                return .failure(Refusal(reasons: ["the update cannot be moved into place: \(error.localizedDescription)"]))
            }
        }
    }

    /// Verifies and installs `bundleID` from the built world again (after it was deleted).
    func reinstall(_ bundleID: BundleID) -> Result<Installed, Refusal> {
        install(bundleID, from: source(bundleID))
    }

    /// Where the built world keeps the build of `bundleID` this device installs.
    private func source(_ bundleID: BundleID, update: Bool = false) -> String {
        WorldLayout.bundle(bundleID, update: update, macBuild: macBuilds.contains(bundleID))
    }

    /// Removes an installed bundle.
    func remove(_ bundleID: String) {
        try? FileManager.default.removeItem(at: destination.appending(path: "\(bundleID).app"))
    }

    /// Why a bundle was not installed.
    struct Refusal: Error {
        let reasons: [String]
    }

    private func install(_ bundleID: BundleID, from relativePath: String) -> Result<Installed, Refusal> {
        let target = destination.appending(path: "\(bundleID).app")
        try? FileManager.default.removeItem(at: target)
        // Copy first, then verify the copy: what is checked is exactly what will run.
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: layout.url(relativePath), to: target)
            try Self.restrictToOwner(target)
        } catch {
            return .failure(Refusal(reasons: ["bundle-layout: the bundle cannot be read: \(error.localizedDescription)"]))
        }
        let verdict = verifier.verify(bundleAt: target, device: udid, platform: platform)
        guard verdict.valid, let bundle = try? AppBundle(at: target) else {
            try? FileManager.default.removeItem(at: target)
            return .failure(Refusal(reasons: verdict.reasons.map(\.description)))
        }
        // When the device runs as root its apps run as users of their own: the bundle takes the
        // app's group, once, here.
        do {
            try AppUser.forLaunch(device: deviceID, bundleID: bundleID.rawValue)?.grant(bundle: target)
        } catch {
            try? FileManager.default.removeItem(at: target)
            return .failure(Refusal(reasons: ["bundle-layout: the bundle cannot be given to its app's user: \(error.localizedDescription)"]))
        }
        let getTaskAllow = verdict.entitlements?.getTaskAllow ?? false
        return .success(Installed(bundleID: bundleID.rawValue, bundle: bundle, verdict: verdict, getTaskAllow: getTaskAllow))
    }

    /// A copy keeps its source's modes; an installed app is the device's alone (folders and
    /// programs 0700, other files 0600), whoever built the world.
    private static func restrictToOwner(_ folder: URL) throws {
        var paths = [folder]
        if let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) {
            while let url = enumerator.nextObject() as? URL { paths.append(url) }
        }
        for url in paths {
            let mode = (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? 0o600
            try FileManager.default.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: url.path)
        }
    }
}
