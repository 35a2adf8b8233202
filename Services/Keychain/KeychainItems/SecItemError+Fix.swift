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
}
