/// The entitlement keys KeychainLab reads, with Apple's spelling.
public enum EntitlementKey {
    /// The app's keychain access groups (array of strings).
    public static let keychainAccessGroups = "keychain-access-groups"
    /// The application identifier on iOS (string).
    public static let applicationIdentifier = "application-identifier"
    /// The application identifier on macOS (string).
    public static let macApplicationIdentifier = "com.apple.application-identifier"
    /// Associated application identifiers of Mac Catalyst and App Store Mac apps (array of strings).
    public static let associatedApplicationIdentifier = "com.apple.developer.associated-application-identifier"
    /// The team identifier (string).
    public static let teamIdentifier = "com.apple.developer.team-identifier"
    /// Application groups (array of strings).
    public static let applicationGroups = "com.apple.security.application-groups"
    /// Associated domains (array of `service:domain` strings).
    public static let associatedDomains = "com.apple.developer.associated-domains"
    /// Whether a debugger may attach: development builds (Boolean).
    public static let getTaskAllow = "get-task-allow"
    /// A Mac app's debugging entitlement under the hardened runtime, which App Store processing
    /// refuses in a distribution build as iOS's `get-task-allow`.
    public static let macGetTaskAllow = "com.apple.security.get-task-allow"
    /// Marks an App Clip, whose app groups are not keychain groups (Boolean).
    public static let onDemandInstallCapable = "com.apple.developer.on-demand-install-capable"
    /// Apple's private switch that takes the keychain away from a process (Boolean).
    public static let keychainDeny = "com.apple.private.keychain.deny"
    /// A web browser's right to make passkey requests for the origins it shows (Boolean, a managed
    /// capability Apple grants to browsers; Safari holds it).
    public static let webBrowserPublicKeyCredential = "com.apple.developer.web-browser.public-key-credential"
}

extension EntitlementKey {
    /// Whether a Mac app grants `key` to itself: the App Sandbox and Hardened Runtime entitlements
    /// (`com.apple.security.…`), which no profile lists and the system does not check against one.
    /// App groups are the exception: a profile that lists them is checked.
    public static func isSelfGranted(_ key: String, onMac: Bool) -> Bool {
        onMac && key.hasPrefix("com.apple.security.") && key != applicationGroups
    }
}
