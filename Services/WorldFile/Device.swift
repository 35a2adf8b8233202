public import AppIdentity
public import WebCredentialAPI

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
    /// Settings › Passwords › AutoFill Passwords: shared web credentials need it on.
    public var passwordAutoFill: Bool
    /// How the device's user answers consent prompts.
    public var user: ScriptedUser
    /// Whether the world's browser is installed (when the world has websites); default true.
    public var hasBrowser: Bool

    /// The user's answers: the listed ones in order, then the default for every later prompt.
    public struct ScriptedUser: Hashable, Sendable {
        public var answers: [ScriptedAnswer]
        public var defaultAnswer: ScriptedAnswer

        public init(answers: [ScriptedAnswer] = [], defaultAnswer: ScriptedAnswer = ScriptedAnswer(.approve)) {
            self.answers = answers
            self.defaultAnswer = defaultAnswer
        }
    }

    /// A device from its parts.
    public init(
        id: String,
        udid: String,
        platform: Platform = .ios,
        osVersion: OSVersion,
        iCloudAccount: String? = nil,
        passcode: String? = nil,
        apps: [BundleID] = [],
        passwordAutoFill: Bool = true,
        user: ScriptedUser = ScriptedUser(),
        hasBrowser: Bool = true
    ) {
        self.id = id
        self.udid = udid
        self.platform = platform
        self.osVersion = osVersion
        self.iCloudAccount = iCloudAccount
        self.passcode = passcode
        self.apps = apps
        self.passwordAutoFill = passwordAutoFill
        self.user = user
        self.hasBrowser = hasBrowser
    }
}
