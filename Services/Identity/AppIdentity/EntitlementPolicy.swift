/// The rule that every entitlement an app's signature claims must be allowed by its profile,
/// as the system checks at install and launch (AMFI on a real device).
///
/// A profile allows a claimed value when it holds the same value, a pattern ending in `*` that
/// covers it (`ABCDE12345.*`), or `*`; for arrays, every claimed element must be allowed by an
/// element of the profile's array; a Boolean `true` in the profile allows either value. Empty
/// strings in an array are passed over: they grant nothing, since access groups drop them
/// (spec keychain.md §1.5), so they need no permission.
public enum EntitlementPolicy {
    /// Every claimed entitlement the profile does not allow, one refusal each.
    /// A Mac profile's sandbox and hardened-runtime entitlements are the app's own
    /// (``EntitlementKey/isSelfGranted(_:onMac:)``).
    public static func violations(of claimed: Entitlements, allowedBy profile: ProvisioningProfile) -> [Refusal] {
        let claimed = withoutSelfNamedGroups(claimed, profile: profile)
        return claimed.values.keys.sorted().filter { !EntitlementKey.isSelfGranted($0, onMac: profile.isForMac) }.compactMap { key in
            let value = claimed.values[key]!
            guard let allowed = profile.entitlements[key] else {
                return Refusal(.entitlementNotAllowed, missingDetail(key, value, profile))
            }
            let denied = deniedParts(of: value, allowedBy: allowed)
            guard !denied.isEmpty else { return nil }
            return Refusal(
                .entitlementNotAllowed,
                "\(key): \(denied.joined(separator: ", ")) not allowed by the profile (it allows \(render(allowed)))"
            )
        }
    }

    /// The app groups a Mac app names after its own team (`TEAMID.name`): on macOS they need no
    /// registration, so no profile lists them (Apple's App Groups Entitlement reference: "You
    /// don't need to register app groups that use this format").
    public static func selfNamedGroups(_ claimed: Entitlements, profile: ProvisioningProfile) -> [String] {
        guard profile.isForMac, let team = profile.teamID else { return [] }
        return (claimed.applicationGroups ?? []).filter { $0.hasPrefix(team.prefix) }
    }

    /// `claimed` without its ``selfNamedGroups(_:profile:)``, for checking against the profile.
    public static func withoutSelfNamedGroups(_ claimed: Entitlements, profile: ProvisioningProfile) -> Entitlements {
        let own = Set(selfNamedGroups(claimed, profile: profile))
        guard !own.isEmpty, let groups = claimed[EntitlementKey.applicationGroups]?.array else { return claimed }
        var rest = claimed
        let kept = groups.filter { element in element.string.map { !own.contains($0) } ?? true }
        rest[EntitlementKey.applicationGroups] = kept.isEmpty ? nil : .array(kept)
        return rest
    }

    /// The parts of `value` that `allowed` does not cover, rendered for a message; empty when all are allowed.
    static func deniedParts(of value: PlistValue, allowedBy allowed: PlistValue) -> [String] {
        if case .string("*") = allowed { return [] }
        switch (value, allowed) {
        case (.array(let elements), .array(let patterns)):
            let allowed = EntitlementPatternSet(patterns)
            return elements.filter { element in element != .string("") && !allowed.allows(element) }.map(render)
        case (.array(let elements), _):
            return elements.filter { $0 != .string("") && !isAllowed($0, by: allowed) }.map(render)
        default:
            return isAllowed(value, by: allowed) ? [] : [render(value)]
        }
    }

    private static func isAllowed(_ value: PlistValue, by allowed: PlistValue) -> Bool {
        switch (value, allowed) {
        case (_, .string("*")):
            return true
        case (.string(let text), .string(let pattern)):
            return EntitlementPattern(pattern).matches(text)
        case (.string, .array(let patterns)):
            return patterns.contains { isAllowed(value, by: $0) }
        case (.bool(let flag), .bool(let allowedFlag)):
            return allowedFlag || !flag
        default:
            return value == allowed
        }
    }

    private static func missingDetail(_ key: String, _ value: PlistValue, _ profile: ProvisioningProfile) -> String {
        let capabilities = [EntitlementKey.applicationGroups, EntitlementKey.associatedDomains]
        if let pattern = profile.appIDPattern, pattern.isWildcard, capabilities.contains(key) {
            return "\(key): a wildcard App ID (\(pattern)) cannot carry this capability; use an explicit App ID"
        }
        return "\(key) = \(render(value)) is not in the profile's entitlements"
    }

    private static func render(_ value: PlistValue) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        default: "\(value)"
        }
    }
}
