public import Foundation
import LabErrors

/// One rule of `kclab lint` and what came of it: what the signature claims, what the profile
/// grants, and, for a failure, what to change in Xcode.
public struct LintFinding: Codable, Hashable, Sendable, CustomStringConvertible {
    public enum Result: String, Codable, Hashable, Sendable {
        case pass, warn, fail
    }

    /// The rule, such as `keychain-access-groups`.
    public let rule: String
    public let result: Result
    public let detail: String
    /// What to change, for a failure or a warning.
    public let fix: String?

    public init(_ rule: String, _ result: Result, _ detail: String, fix: String? = nil) {
        self.rule = rule
        self.result = result
        self.detail = detail
        self.fix = fix
    }

    public var description: String {
        "\(result.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(rule): \(detail)"
            + (fix.map { "\n     fix: \($0)" } ?? "")
    }
}

/// What a signature claims against what its profile grants, rule by rule, as the device's
/// installer and App Store processing check them (`kclab lint`). The entitlements are the ones an
/// `.entitlements` file holds, with Xcode's build variables still in them.
public struct EntitlementLint: Sendable {
    /// What the app is built as.
    public enum Configuration: String, Sendable, CaseIterable {
        /// A development build: `get-task-allow` may be true.
        case debug
        /// A build for distribution (App Store, ad hoc, enterprise, Developer ID): it must not be.
        case release
    }

    public var claimed: Entitlements
    public var profile: ProvisioningProfile
    /// Whether the profile's envelope matches its signature (``ProfileInspection/signatureValid``).
    public var signatureValid: Bool
    /// The bundle ID; default: the profile's explicit App ID, else the claimed application identifier.
    public var bundleID: BundleID?
    /// Default: the profile's platform.
    public var platform: Platform?
    public var configuration: Configuration?
    public var date: Date
    /// What is wrong with an associated-domains entry, nil when it is well formed (the grammar
    /// lives with the association rules; the caller passes it in).
    public var entryProblem: @Sendable (String) -> String?

    public init(
        claimed: Entitlements,
        profile: ProvisioningProfile,
        signatureValid: Bool = true,
        bundleID: BundleID? = nil,
        platform: Platform? = nil,
        configuration: Configuration? = nil,
        date: Date,
        entryProblem: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.claimed = claimed
        self.profile = profile
        self.signatureValid = signatureValid
        self.bundleID = bundleID
        self.platform = platform
        self.configuration = configuration
        self.date = date
        self.entryProblem = entryProblem
    }

    /// Every rule, in the order a person fixes them.
    public func findings() -> [LintFinding] {
        var findings = signatureValid ? [] : [LintFinding("signature", .fail, ProfileInspection.changedAfterSigning)]
        findings.append(dates())
        let platform = self.platform ?? (profile.platforms.contains("OSX") ? .macos : .ios)
        if let given = self.platform { findings.append(platformCovered(given)) }
        guard let prefix = profile.applicationIdentifierPrefixes.first, let team = profile.teamID else {
            return findings + [LintFinding("team", .fail, "the profile names no team or App ID prefix")]
        }
        guard let bundleID = resolvedBundleID(prefix: prefix) else {
            return findings + [
                LintFinding(
                    "bundle-id",
                    .fail,
                    "the profile's App ID \(profile.appIDPattern?.rawValue ?? "?") is a wildcard and no bundle ID was given",
                    fix: "give --bundle-id: the target's PRODUCT_BUNDLE_IDENTIFIER"
                )
            ]
        }
        let expanded: Entitlements
        do {
            expanded = try BuildVariables(appIDPrefix: prefix, team: team, bundleID: bundleID).expand(claimed)
        } catch {
            return findings + [LintFinding("build-variables", .fail, error.message, fix: "use only the variables Xcode substitutes in entitlements")]
        }
        let appID = AppID(prefix: prefix, bundleID: bundleID)
        if let covered = bundleIDCovered(appID) { findings.append(covered) }
        findings.append(applicationIdentifier(expanded, appID: appID, platform: platform))
        findings.append(teamIdentifier(expanded, team: team))
        findings += listed(expanded, EntitlementKey.keychainAccessGroups, capability: "Keychain Sharing")
        findings += applicationGroups(expanded, platform: platform, team: team)
        findings += associatedDomains(expanded)
        findings.append(getTaskAllow(expanded, platform: platform))
        if let aps = apsEnvironment(expanded) { findings.append(aps) }
        findings.append(devices())
        findings += others(expanded)
        return findings
    }

    private func resolvedBundleID(prefix: TeamID) -> BundleID? {
        if let bundleID { return bundleID }
        if let pattern = profile.appIDPattern, !pattern.isWildcard, let appID = try? AppID(pattern.rawValue) { return appID.bundleID }
        let claimedID = claimed.applicationIdentifier ?? claimed[EntitlementKey.macApplicationIdentifier]?.string
        return claimedID.flatMap { try? AppID($0) }?.bundleID
    }

    /// A `--bundle-id` given by hand must be one the profile's App ID covers, as App Store
    /// processing requires of `CFBundleIdentifier`.
    private func bundleIDCovered(_ appID: AppID) -> LintFinding? {
        guard self.bundleID != nil, let pattern = profile.appIDPattern else { return nil }
        let kind = pattern.isWildcard ? "wildcard" : "explicit"
        guard pattern.matches(appID) else {
            return LintFinding(
                "bundle-id",
                .fail,
                "\(appID.bundleID) is not covered by the profile's \(kind) App ID \(pattern.rawValue)",
                fix: "set PRODUCT_BUNDLE_IDENTIFIER to a bundle ID the App ID covers, or use the profile made for \(appID.bundleID)"
            )
        }
        return LintFinding("bundle-id", .pass, "\(appID.bundleID) is covered by the \(kind) App ID \(pattern.rawValue)")
    }

    private func dates() -> LintFinding {
        if date < profile.creationDate {
            return LintFinding("profile-dates", .fail, "the profile is not valid before \(profile.creationDate.formatted(.iso8601))")
        }
        if date > profile.expirationDate {
            return LintFinding(
                "profile-dates",
                .fail,
                "the profile expired on \(profile.expirationDate.formatted(.iso8601))",
                fix: "renew the profile in the developer portal (or let Xcode manage signing) and download it again"
            )
        }
        return LintFinding("profile-dates", .pass, "valid until \(profile.expirationDate.formatted(.iso8601))")
    }

    private func applicationIdentifier(_ expanded: Entitlements, appID: AppID, platform: Platform) -> LintFinding {
        let key = platform == .macos ? EntitlementKey.macApplicationIdentifier : EntitlementKey.applicationIdentifier
        let claimedID = expanded[key]?.string ?? expanded.applicationIdentifier ?? appID.rawValue
        guard let pattern = profile.appIDPattern else {
            return LintFinding("application-identifier", .fail, "the profile grants no application identifier")
        }
        guard let parsed = try? AppID(claimedID), pattern.matches(parsed) else {
            return LintFinding(
                "application-identifier",
                .fail,
                "\(claimedID) is not the profile's App ID \(pattern.rawValue)",
                fix: "set PRODUCT_BUNDLE_IDENTIFIER to the App ID's bundle ID, or choose the profile made for \(claimedID)"
            )
        }
        return LintFinding("application-identifier", .pass, "\(claimedID) is covered by \(pattern.rawValue)")
    }

    private func teamIdentifier(_ expanded: Entitlements, team: TeamID) -> LintFinding {
        guard let claimedTeam = expanded.teamIdentifier else {
            return LintFinding("team-identifier", .pass, "the profile's team \(team) (the signature names none)")
        }
        guard claimedTeam == team.rawValue else {
            return LintFinding(
                "team-identifier",
                .fail,
                "com.apple.developer.team-identifier is \(claimedTeam), the profile's team is \(team)",
                fix: "set DEVELOPMENT_TEAM to \(team) in the target's Signing & Capabilities"
            )
        }
        return LintFinding("team-identifier", .pass, "\(claimedTeam)")
    }

    /// A list entitlement whose every element the profile must grant.
    func listed(
        _ expanded: Entitlements,
        _ key: String,
        capability: String,
        fix: String =
            "use a keychain access group the profile grants (with the team prefix, $(AppIdentifierPrefix) in the .entitlements file), or add it to the App ID"
    ) -> [LintFinding] {
        guard let value = expanded[key] else { return [] }
        guard let granted = profile.entitlements[key] else {
            return [
                LintFinding(
                    key,
                    .fail,
                    "the signature claims \(render(value)); the profile grants no \(key)",
                    fix: "enable \(capability) for the App ID in the developer portal and regenerate the profile"
                )
            ]
        }
        let denied = EntitlementPolicy.deniedParts(of: value, allowedBy: granted)
        guard denied.isEmpty else {
            // A value the profile grants once the team prefix is put in front: the usual mistake.
            let prefixed = (value.array ?? [value]).compactMap(\.string).compactMap { text -> String? in
                // Only a value with no team prefix of its own: another team's group is not a typo.
                let head = String(text.prefix { $0 != "." })
                guard let prefix = profile.applicationIdentifierPrefixes.first?.prefix, (try? TeamID(head)) == nil else { return nil }
                return EntitlementPolicy.deniedParts(of: .string(prefix + text), allowedBy: granted).isEmpty ? prefix + text : nil
            }
            let hint = prefixed.isEmpty ? "" : "; did you mean \(prefixed.joined(separator: ", "))?"
            return [
                LintFinding(
                    key,
                    .fail,
                    "\(denied.joined(separator: ", ")) not granted: the profile grants \(render(granted))\(hint)",
                    fix: fix
                )
            ]
        }
        return [LintFinding(key, .pass, "\(render(value)) within \(render(granted))")]
    }

    private func associatedDomains(_ expanded: Entitlements) -> [LintFinding] {
        guard expanded[EntitlementKey.associatedDomains] != nil else { return [] }
        var findings = listed(
            expanded,
            EntitlementKey.associatedDomains,
            capability: "Associated Domains",
            fix: "claim only domains the profile grants, or add the domain to the App ID's Associated Domains and regenerate the profile"
        )
        let problems = expanded.associatedDomains.compactMap { entry in entryProblem(entry).map { "\(entry): \($0)" } }
        findings.append(
            problems.isEmpty
                ? LintFinding("associated-domains-form", .pass, "\(expanded.associatedDomains.count) entries of the form service:host[:port][?mode=]")
                : LintFinding(
                    "associated-domains-form",
                    .fail,
                    problems.joined(separator: "; "),
                    fix: "write each entry as service:host, such as webcredentials:example.com"
                )
        )
        return findings
    }

    /// A `--platform` given by hand must be one the profile is for: Xcode will not sign a macOS
    /// build with an iOS profile, nor the reverse.
    private func platformCovered(_ platform: Platform) -> LintFinding {
        let wanted = platform == .macos ? "OSX" : "iOS"
        let names = profile.platforms.joined(separator: ", ")
        guard profile.platforms.contains(wanted) else {
            return LintFinding(
                "platform",
                .fail,
                "the profile is for \(names); a \(platform == .macos ? "macOS" : "iOS") build needs a profile for \(wanted)",
                fix: "download the \(platform == .macos ? "macOS" : "iOS") profile of this App ID (or let Xcode manage signing for that platform)"
            )
        }
        return LintFinding("platform", .pass, "the profile is for \(names)")
    }

    private func getTaskAllow(_ expanded: Entitlements, platform: Platform) -> LintFinding {
        // A Mac app claims it as com.apple.security.get-task-allow (the hardened runtime's).
        let claimedFlag = expanded.getTaskAllow || (platform == .macos && expanded[EntitlementKey.macGetTaskAllow]?.bool == true)
        if claimedFlag, profile.kind == .distribution {
            return LintFinding(
                "get-task-allow",
                .fail,
                "a development build (get-task-allow true) signed with a distribution profile",
                fix: "archive with the Release configuration, or sign with a development profile"
            )
        }
        if claimedFlag, configuration == .release {
            return LintFinding(
                "get-task-allow",
                .fail,
                "a release build claims get-task-allow",
                fix: "remove get-task-allow from the .entitlements file"
            )
        }
        return LintFinding("get-task-allow", .pass, "\(claimedFlag); the profile \(profile.kind == .development ? "allows" : "does not allow") it")
    }

    private func apsEnvironment(_ expanded: Entitlements) -> LintFinding? {
        let key = "aps-environment"
        guard let value = expanded[key]?.string else { return nil }
        guard let granted = profile.entitlements[key]?.string else {
            return LintFinding(
                key,
                .fail,
                "the signature claims \(value); the profile grants no push",
                fix: "enable Push Notifications for the App ID"
            )
        }
        guard value == granted else {
            return LintFinding(
                key,
                .fail,
                "the signature claims \(value), the profile grants \(granted)",
                fix: "set aps-environment to \(granted), or sign with the profile of the other kind"
            )
        }
        return LintFinding(key, .pass, value)
    }

    private func devices() -> LintFinding {
        if profile.provisionsAllDevices {
            return LintFinding("devices", .pass, profile.method == .developerID ? "any Mac (Developer ID)" : "any device (enterprise)")
        }
        guard let devices = profile.provisionedDevices else { return LintFinding("devices", .pass, "any device (distribution)") }
        guard !devices.isEmpty else {
            return LintFinding(
                "devices",
                .fail,
                "the profile lists no device",
                fix: "register the devices in the developer portal and regenerate the profile"
            )
        }
        return LintFinding("devices", .pass, "\(devices.count) devices listed")
    }

    func render(_ value: PlistValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        default: "\(value)"
        }
    }
}
