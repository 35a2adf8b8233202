public import AppIdentity

extension World {
    /// The team standing in for Apple's platform signing (a real platform binary has no team).
    public static let platformTeam = Team(id: .platform, name: "Apple Platform (KeychainLab)")
    /// The browser's bundle ID: Safari's.
    public static let browserBundleID = try! BundleID("com.apple.mobilesafari")

    /// A world with websites gets the browser: an iOS app signed by the platform team, entitled to
    /// the saved-passwords group `com.apple.cfnetwork` and to passkey requests for the origins it
    /// shows (the web-browser public-key-credential capability), installed on every iOS device that does not
    /// say `browser: false`. A world that declares the team or the bundle ID itself keeps its own.
    mutating func addBrowser() {
        guard !websites.isEmpty, team(Self.platformTeam.id) == nil, app(Self.browserBundleID) == nil else { return }
        teams.append(Self.platformTeam)
        var entitlements = Entitlements()
        entitlements[EntitlementKey.keychainAccessGroups] = .array([.string(AccessGroup.savedPasswords.rawValue)])
        entitlements[EntitlementKey.webBrowserPublicKeyCredential] = .bool(true)
        var grants = Entitlements()
        grants[EntitlementKey.webBrowserPublicKeyCredential] = .bool(true)
        apps.append(
            App(
                bundleID: Self.browserBundleID,
                name: "Safari",
                team: Self.platformTeam.id,
                profile: ProfileSpec(kind: .distribution, grants: grants),
                entitlements: entitlements,
                program: "browser"
            )
        )
        for index in devices.indices where devices[index].platform == .ios && devices[index].hasBrowser {
            devices[index].apps.append(Self.browserBundleID)
        }
    }
}
