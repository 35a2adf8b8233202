public import AppIdentity
import Foundation

extension SecItemError.Rule {
    /// What to change when this rule refused a call, in the terms of an app's project: the next
    /// step `kclab test` prints after a run (docs/troubleshooting.md has the longer story).
    public var fix: String {
        switch self {
        case .accessGroup:
            "list the group in the app's keychain-access-groups entitlement, with its team prefix ($(AppIdentifierPrefix)), "
                + "or name a group the app holds"
        case .queryForm: "change the query: a key, a combination of keys or a value SecItem does not take (the reason names it)"
        case .attribute: "use an attribute the item's class has, with a value of its type"
        case .noMatch: "nothing in the app's groups matches: check the service, account and group the item was added with"
        case .otherGroup:
            "the item is in an access group the app does not hold (the reason names it): list that group in the app's entitlements, "
                + "or add the item in a group the app holds"
        case .duplicate: "update the existing item with SecItemUpdate, or delete it first"
        case .deviceLocked: "unlock the device (kclab device unlock), or add the item with an accessibility that allows a locked device"
        case .passcodeRequired: "set a passcode (kclab device set-passcode), or use an accessibility that needs none"
        case .loginKeychainAccess: "let the device's user allow the app (kclab device answer), or add the item from this app"
        case .loginKeychainLocked: "unlock the login keychain (kclab device unlock-keychain)"
        case .appClip: "an App Clip may use only its application identifier as group, and no synchronizable item"
        case .keychainDenied: "remove com.apple.private.keychain.deny from the app's entitlements"
        case .dataSize: "keep an item's data under 1 MiB"
        case .database: "keychaind's database failed: read its log (kclab logs keychaind)"
        }
    }

    /// The fix for a refusal whose reason is `reason`, on a device of `platform`. An app group is
    /// held through `com.apple.security.application-groups`, not `keychain-access-groups`: a
    /// refused `group.…` names that entitlement, and on a Mac, where an app group may also be
    /// named `TEAMID.name`, a refused team-prefixed group names both.
    public func fix(reason: String, platform: Platform?) -> String {
        guard self == .accessGroup, let group = SecItemError.refusedGroup(in: reason) else { return fix }
        if group.hasPrefix("group.") {
            return "list the app group in the app's com.apple.security.application-groups entitlement, not keychain-access-groups "
                + "(its team registers it: the team's appGroups in the world file), or name a group the app holds"
        }
        if platform == .macos, let dot = group.firstIndex(of: "."), (try? TeamID(String(group[..<dot]))) != nil {
            return "list the group in the app's keychain-access-groups entitlement, with its team prefix ($(AppIdentifierPrefix)); "
                + "an app group goes in com.apple.security.application-groups instead, as $(TeamIdentifierPrefix)name; "
                + "or name a group the app holds"
        }
        return fix
    }
}

extension SecItemError {
    /// The group an access-group refusal names ("… access group 'NAME'"), as the engine words
    /// its reasons; `nil` when it names none.
    public static func refusedGroup(in reason: String) -> String? {
        guard let start = reason.range(of: "access group '")?.upperBound, let end = reason[start...].firstIndex(of: "'") else { return nil }
        return start == end ? nil : String(reason[start..<end])
    }
}
