extension Entitlements {
    /// The app's access groups in Apple's order (spec keychain.md §1.1, seed 000):
    /// `keychain-access-groups`, then associated application identifiers, then the application
    /// identifier, then application groups (skipped for App Clips).
    ///
    /// The entitlements must already be validated against a provisioning profile, as they are on
    /// iOS; duplicates are kept, as securityd keeps them, and empty strings are dropped so that ""
    /// can never be granted (§1.5).
    public var accessGroups: [AccessGroup] {
        var names = keychainAccessGroups ?? []
        names += associatedApplicationIdentifiers ?? []
        if let applicationIdentifier { names.append(applicationIdentifier) }
        if !isAppClip { names += applicationGroups ?? [] }
        return names.compactMap { try? AccessGroup($0) }
    }

    /// The access groups of entitlements no profile validated, as macOS's securityd forms them for a
    /// binary signed without a provisioning profile (spec keychain.md §1.1 step 2): only
    /// `keychain-access-groups` counts; the application identifier, associated identifiers and
    /// application groups are dropped silently.
    public var unvalidatedAccessGroups: [AccessGroup] {
        (keychainAccessGroups ?? []).compactMap { try? AccessGroup($0) }
    }

    /// The access groups a signature with these entitlements grants: ``accessGroups`` when a
    /// provisioning profile validated them, ``unvalidatedAccessGroups`` when none did (a Mac app
    /// signed without a profile). The one choice ``VerifiedApp`` and the world's picture both make.
    public func accessGroups(validatedByProfile: Bool) -> [AccessGroup] {
        validatedByProfile ? accessGroups : unvalidatedAccessGroups
    }

    /// The group `SecItemAdd` uses when the caller names none: the first of ``accessGroups``.
    public var defaultAccessGroup: AccessGroup? {
        accessGroups.first
    }
}
