import Foundation
import LabErrors

extension EntitlementLint {
    /// App groups: granted by the profile, and named as the platform wants (`group.` on iOS; the
    /// team ID, which needs no registration, or a registered `group.` on macOS).
    func applicationGroups(_ expanded: Entitlements, platform: Platform, team: TeamID) -> [LintFinding] {
        guard let groups = expanded.applicationGroups else { return [] }
        let own = EntitlementPolicy.selfNamedGroups(expanded, profile: profile)
        let fix =
            platform == .macos
            ? "name the group after the team (\(team.prefix)name, which needs no registration), or use a group. identifier the profile grants"
            : "use a group. identifier the profile grants (App Groups capability: group.name), or add the group to the App ID"
        var findings = listed(
            EntitlementPolicy.withoutSelfNamedGroups(expanded, profile: profile),
            EntitlementKey.applicationGroups,
            capability: "App Groups",
            fix: fix
        )
        if !own.isEmpty {
            findings.append(
                LintFinding(
                    EntitlementKey.applicationGroups,
                    .pass,
                    "\(own.joined(separator: ", ")): named after the team, needs no registration on macOS"
                )
            )
        }
        let misnamed = groups.filter { group in
            platform == .macos ? !(group.hasPrefix(team.prefix) || group.hasPrefix("group.")) : !group.hasPrefix("group.")
        }
        if !misnamed.isEmpty {
            let rule =
                platform == .macos ? "a Mac app group starts with the team ID (\(team.prefix)) or group." : "an iOS app group starts with group."
            let rename = platform == .macos ? "\(team.prefix)name or group.name" : "group.name (iOS app groups take no team prefix)"
            findings.append(
                LintFinding(
                    "app-group-names",
                    .fail,
                    "\(misnamed.joined(separator: ", ")): \(rule)",
                    fix: "rename the group in the App Groups capability to \(rename)"
                )
            )
        } else if platform == .macos, groups.contains(where: { !$0.hasPrefix(team.prefix) }) {
            findings.append(
                LintFinding(
                    "app-group-names",
                    .warn,
                    "\(groups.filter { !$0.hasPrefix(team.prefix) }.joined(separator: ", ")): macOS 15 and later ask the user before a group. identifier is used outside a Mac App Store app",
                    fix: "prefix Mac app groups with the team ID: \(team.prefix)…"
                )
            )
        }
        return findings
    }

    /// Every other claimed entitlement the profile does not grant, and every key that is a
    /// misspelling of one Apple knows (`keychain-acess-groups`).
    func others(_ expanded: Entitlements) -> [LintFinding] {
        let checked: Set<String> = [
            EntitlementKey.applicationIdentifier, EntitlementKey.macApplicationIdentifier, EntitlementKey.teamIdentifier,
            EntitlementKey.keychainAccessGroups, EntitlementKey.applicationGroups, EntitlementKey.associatedDomains,
            EntitlementKey.getTaskAllow, "aps-environment",
        ]
        let known = Set(EntitlementKey.wellKnown).union(profile.entitlements.values.keys)
        var misspelled: [String: String] = [:]
        for key in expanded.values.keys where !known.contains(key) {
            if let meant = Spelling.nearest(to: key, among: known.sorted(), maxDistance: 3) { misspelled[key] = meant }
        }
        let spelling = misspelled.sorted { $0.key < $1.key }.map { key, meant in
            LintFinding(
                "entitlement-key",
                .fail,
                "\(key) is no entitlement Apple knows; did you mean \(meant)?",
                fix: "rename the key to \(meant) in the .entitlements file"
            )
        }
        let rest = Entitlements(expanded.values.filter { !checked.contains($0.key) && misspelled[$0.key] == nil })
        return spelling
            + EntitlementPolicy.violations(of: rest, allowedBy: profile).map { refusal in
                LintFinding("entitlement", .fail, refusal.detail, fix: "enable the capability for the App ID, or remove the entitlement")
            }
    }
}
