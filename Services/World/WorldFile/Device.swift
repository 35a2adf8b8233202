public import AppIdentity
public import UserAnswers

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
    /// The iCloud account signed in when the lab starts, whose synchronizable items the device shares.
    public var iCloudAccount: String?
    /// The other accounts `kclab device icloud sign-in` may sign it in to (`iCloudAccounts:`):
    /// the world builder makes a certificate for each, since the account is the certificate's.
    public var otherICloudAccounts: [String]
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
    /// Developer Mode with "Associated Domains Development" on: `?mode=developer` entries are used.
    public var developerMode: Bool
    /// The MDM managing the device, if any: `?mode=managed` entries are used for its domains.
    public var mdm: MDM?

    /// Every account the device may be signed in to: its own first, then the others.
    public var signInAccounts: [String] { (iCloudAccount.map { [$0] } ?? []) + otherICloudAccounts }

    /// What an MDM says about associated domains.
    public struct MDM: Hashable, Sendable {
        /// The domains it authorises for managed entries.
        public var domains: [String]
        /// `AssociatedDomainsEnableDirectDownloads`: managed entries are fetched from the site.
        public var directDownloads: Bool

        public init(domains: [String], directDownloads: Bool = false) {
            self.domains = domains
            self.directDownloads = directDownloads
        }
    }

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
        otherICloudAccounts: [String] = [],
        passcode: String? = nil,
        apps: [BundleID] = [],
        passwordAutoFill: Bool = true,
        user: ScriptedUser = ScriptedUser(),
        hasBrowser: Bool = true,
        developerMode: Bool = true,
        mdm: MDM? = nil
    ) {
        self.id = id
        self.udid = udid
        self.platform = platform
        self.osVersion = osVersion
        self.iCloudAccount = iCloudAccount
        self.otherICloudAccounts = otherICloudAccounts
        self.passcode = passcode
        self.apps = apps
        self.passwordAutoFill = passwordAutoFill
        self.user = user
        self.hasBrowser = hasBrowser
        self.developerMode = developerMode
        self.mdm = mdm
    }
}
