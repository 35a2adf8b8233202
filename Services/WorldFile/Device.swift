public import AppIdentity

/// A device: the operating system that installs and runs apps.
public struct Device: Hashable, Sendable {
    /// A short name, such as `iphone-alice`: letters, digits and `-`.
    public var id: String
    /// The device's UDID, written into its certificate and into development profiles.
    public var udid: String
    /// iOS or macOS.
    public var platform: Platform
    /// The OS version; where Apple changed behaviour, it decides.
    public var osVersion: OSVersion
    /// The iCloud account signed in, whose synchronizable items the device shares.
    public var iCloudAccount: String?
    /// The passcode; `nil` for a device without one (always unlocked).
    public var passcode: String?
    /// The apps installed on it.
    public var apps: [BundleID]

    /// A device from its parts.
    public init(
        id: String,
        udid: String,
        platform: Platform = .ios,
        osVersion: OSVersion,
        iCloudAccount: String? = nil,
        passcode: String? = nil,
        apps: [BundleID] = []
    ) {
        self.id = id
        self.udid = udid
        self.platform = platform
        self.osVersion = osVersion
        self.iCloudAccount = iCloudAccount
        self.passcode = passcode
        self.apps = apps
    }
}
