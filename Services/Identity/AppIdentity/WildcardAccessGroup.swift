/// The access group `*`, which securityd reads as "every group" (spec keychain.md §1.6): honoured
/// only for an eligible platform binary, one Apple signed whose signing identifier is on securityd's
/// allow-list; a customer build of iOS has an empty list, so there no client may hold it.
public enum WildcardAccessGroup {
    /// The group's name.
    public static let name = "*"

    /// securityd's allow-list on customer builds, by platform (src `sanityCheckClientAccessGroups`).
    public static func allowList(on platform: Platform) -> [String] {
        switch platform {
        case .macos: ["com.apple.keychainaccess", "com.apple.KeychainMigrator"]
        case .ios: []
        }
    }

    /// Whether a client signed by `team` as `signingIdentifier` may hold `*` on a `platform` device.
    public static func isEligible(team: TeamID, signingIdentifier: String, on platform: Platform) -> Bool {
        team == .platform && allowList(on: platform).contains(signingIdentifier)
    }
}
