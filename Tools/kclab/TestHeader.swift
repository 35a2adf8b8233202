import AppIdentity
import WorldFile

/// The first lines of `kclab test`'s report: the app the command runs as and the devices that
/// install it, as the world declares them, so that a run's output says what its tests met (a Mac
/// running an iPhone app has no login keychain; a device without a passcode never locks).
enum TestHeader {
    /// The lines for a command run as `bundleID` of `world` on the devices `running`; `testHost`
    /// when kclab made the world (no --world), `testBundle` when the command runs a test bundle,
    /// which then reads the host's Info.plist (``TestHostInfo``).
    static func lines(world: World, bundleID: BundleID, running: [String], testHost: Bool, testBundle: Bool) -> [String] {
        var lines: [String] = []
        if let app = world.app(bundleID) {
            let who = testHost ? "the test host \(bundleID)" : "\(bundleID) of the world \(world.name)"
            let groups = app.entitlements.keychainAccessGroups ?? []
            let held = groups.isEmpty ? "no keychain-access-groups (its own group only)" : "keychain-access-groups \(groups.joined(separator: ", "))"
            lines.append("kclab test: \(who): team \(app.team), \(signing(app.profile)), \(held)")
        }
        lines.append(
            testBundle
                ? "kclab test: Bundle.main.bundleIdentifier \(bundleID) in the test bundle, which reads the host's Info.plist, as in an Xcode test host"
                : "kclab test: Bundle.main is the program's own: only a test bundle (NAME.xctest, or the one swift test runs) reads the host's Info.plist"
        )
        for device in world.devices where device.apps.contains(bundleID) {
            let use = running.contains(device.id) ? "runs the command" : "not used (add --device \(device.id))"
            lines.append("kclab test: \(device.id): \(system(device, world: world, bundleID: bundleID)), \(passcode(device)); \(use)")
        }
        return lines
    }

    /// How the app is signed: only a development profile gives `get-task-allow`, which `exec` needs.
    private static func signing(_ profile: ProfileSpec) -> String {
        guard profile.exists else { return "signed without a profile" }
        return profile.kind == .development ? "development profile (get-task-allow)" : "\(profile.kind.rawValue) profile"
    }

    /// The device's OS, and on a Mac which build of the app it runs, which decides its keychains.
    private static func system(_ device: WorldFile.Device, world: World, bundleID: BundleID) -> String {
        let os = "\(device.platform) \(device.osVersion)"
        guard device.platform == .macos, let build = world.app(bundleID, on: .macos) else { return os }
        // An Apple silicon Mac runs an iPhone app where the world builds no Mac one.
        return build.platform == .ios
            ? "\(os) running the iOS build (the data-protection keychain only)"
            : "\(os) running the Mac build (the login and data-protection keychains)"
    }

    /// Whether the device has a passcode, and what having none means for the tests.
    private static func passcode(_ device: WorldFile.Device) -> String {
        device.passcode == nil
            ? "no passcode (never locked; kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly adds fail, -25293)"
            : "a passcode (kclab device lock locks it)"
    }
}
