import AppIdentity
import Foundation
import WorldBuilder

/// The platform a bundle is checked for when the user names none: a bundle without a provisioning
/// profile can only be a Mac app (Developer ID), so macOS; any other is checked as its profile
/// says (the verifier's default).
func platformToCheck(_ given: Platform?, bundleAt url: URL) -> Platform? {
    if let given { return given }
    return FileManager.default.fileExists(atPath: url.appending(path: AppBundle.Layout.profile).path) ? nil : .macos
}

/// The access groups a device of `platform` holds for an installed bundle (token group moved last,
/// or added on macOS); none for a refused one.
func deviceAccessGroups(_ verdict: InstallVerdict, on platform: Platform) -> [String] {
    guard verdict.valid else { return [] }
    let claimsIdentifier = verdict.entitlements?.applicationIdentifier != nil
    return platform.heldAccessGroups(verdict.accessGroups, hasApplicationIdentifier: claimsIdentifier).map(\.rawValue)
}

/// `--device` as the checks take it: a world device's ID, whose description in the built world
/// gives its UDID and platform, or a UDID as it is.
func deviceToCheck(_ device: String?, world: URL) -> (udid: String?, platform: Platform?) {
    guard let device else { return (nil, nil) }
    guard let described = DeviceDescription.read(device: device, world: world) else { return (device, nil) }
    return (described.udid, described.platform)
}
