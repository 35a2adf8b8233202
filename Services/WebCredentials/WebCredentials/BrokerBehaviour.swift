public import AppIdentity

/// Which of Apple's shared-web-credential behaviours a device gets, from its platform and OS
/// version (spec associations.md d.1–d.5). The releases are Security's; the iOS version each
/// shipped in is the spec's inference (0.2).
public struct BrokerBehaviour: Hashable, Sendable {
    /// How `SecRequestSharedWebCredential` is answered.
    public enum RequestGeneration: String, Hashable, Sendable {
        /// G1 (iOS 8 – 15.3): securityd queries the keychain and shows a picker.
        case picker
        /// G2 (iOS 15.4+, macOS 11+): an ASAuthorizationPasswordProvider request.
        case passwordRequest
    }

    public let platform: Platform
    public let version: OSVersion

    public init(platform: Platform, version: OSVersion) {
        self.platform = platform
        self.version = version
    }

    private var isIOS: Bool { platform == .ios }

    /// `SecAddSharedWebCredential` exists on iOS only; macOS and Catalyst answer errSecUnimplemented.
    public var addIsSupported: Bool { isIOS }

    /// The -909 message when Password AutoFill is off (d.3 step 1): Security-60158 (iOS 15.4) changed it.
    public var autoFillDisabledMessage: String {
        isIOS && version < OSVersion(15, 4)
            ? "Autofill is not enabled in Safari settings"
            : "Password AutoFill for iCloud Keychain must be enabled in Settings > Passwords to save passwords"
    }

    /// Security-59754 (iOS 14) parses the fqdn with `_SWCServiceSpecifier` and matches entitlement
    /// entries by host, case-insensitively, and port; before, the fqdn was a URL's host and the
    /// entry text had to equal it exactly.
    public var matchesEntriesByHost: Bool { !isIOS || version >= OSVersion(14) }

    /// Security-59306 (iOS 13) prompts before saving a new account; 58286 (iOS 11–12) did not, as
    /// seed 002 says.
    public var promptsForNewAccount: Bool { isIOS && version >= OSVersion(13) }

    /// Security-57031 (iOS 8–10) prompted on every update; from 58286 (iOS 11) an unchanged
    /// password is written again without a prompt.
    public var promptsForUnchangedPassword: Bool { isIOS && version < OSVersion(11) }

    /// G1 or G2.
    public var requestGeneration: RequestGeneration {
        isIOS && version < OSVersion(15, 4) ? .picker : .passwordRequest
    }

    /// With a NULL fqdn, G1 from Security-59754 (iOS 14) takes every entry it can parse, whatever
    /// its service (the open code applies no filter); before, only `webcredentials:` entries.
    public var nullFQDNTakesEveryService: Bool { isIOS && version >= OSVersion(14) }

    /// A name for logs and docs: "iOS 12 (Security-58286 rules)".
    public var summary: String {
        let release: String
        switch (platform, version) {
        case (.macos, _): release = "macOS client, G2 requests"
        case (_, ..<OSVersion(11)): release = "Security-57031"
        case (_, ..<OSVersion(13)): release = "Security-58286"
        case (_, ..<OSVersion(14)): release = "Security-59306"
        case (_, ..<OSVersion(15, 4)): release = "Security-59754–60157"
        default: release = "Security-60158+"
        }
        return "\(platform) \(version) (\(release) rules)"
    }
}
