import AppIdentity
import Foundation

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
    return platform.heldAccessGroups(verdict.accessGroups.map(\.rawValue), hasApplicationIdentifier: claimsIdentifier)
}
