extension Platform {
    /// The access-group list a device of this platform holds for a client whose verified
    /// entitlements give `groups` (Apple's order; spec keychain.md §1.1 steps 3–4): the token group,
    /// when listed, moves to the end so that it can never be the default; macOS adds it for every
    /// client but one whose groups are empty although it has an application identifier (securityd's
    /// "entitlement failure" case, left empty on purpose); iOS only when the app lists it.
    public func heldAccessGroups(_ groups: [AccessGroup], hasApplicationIdentifier: Bool = true) -> [AccessGroup] {
        let token = AccessGroup.token
        var list = groups.filter { $0 != token }
        let entitlementFailure = groups.isEmpty && hasApplicationIdentifier
        if groups.contains(token) || (self == .macos && !entitlementFailure) {
            list.append(token)
        }
        return list
    }
}
