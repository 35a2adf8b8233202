public import AppIdentity
public import Foundation
public import LabErrors
public import XcodeProject

/// A real provisioning profile as a world declares the app it signs (`kclab world import
/// --profile`): the team, the app ID prefix (a legacy bundle seed ID when it is not the team),
/// the App ID (explicit, or a wildcard with the bundle ID given), the platform, development or
/// distribution, how long it is valid, and what the portal granted beyond what the lab's profiles
/// give every app of a team (`profile: grants:`). The world then signs its own profile of the
/// same shape: a lab cannot sign with Apple's key, and needs no device of the profile's list.
public struct ImportedProfile: Sendable, Hashable {
    public var team: TeamID
    /// The app ID prefix, when it is not the team ID (the world's `bundleSeedID`).
    public var bundleSeedID: TeamID?
    public var bundleID: BundleID
    /// Whether the profile's App ID is a wildcard (`PREFIX.*`, `PREFIX.com.example.*`).
    public var isWildcard: Bool
    public var platform: Platform
    public var kind: ProvisioningProfile.Kind
    /// Days from creation to expiry, within the world's 1 to 3650.
    public var validDays: Int
    /// Whether it had expired at the moment of the import.
    public var expired: Bool
    /// The app groups the profile lists: the team registers them.
    public var appGroups: [String]
    /// Entitlements beyond the lab's defaults for a profile of this kind: the world's `grants`.
    public var grants: [String: PlistValue]
    /// What the world cannot keep of the profile, one sentence each.
    public var notes: [String]

    /// Keys the lab's profiles give by rule (ProfileFactory): the App ID, the team, the keychain
    /// groups `PREFIX.*` and the token group, `get-task-allow` by kind, the team's app groups
    /// and any associated domain for an explicit App ID.
    public static let givenByRule: Set<String> = [
        EntitlementKey.applicationIdentifier, EntitlementKey.macApplicationIdentifier, EntitlementKey.teamIdentifier,
        EntitlementKey.getTaskAllow, EntitlementKey.keychainAccessGroups, EntitlementKey.applicationGroups,
        EntitlementKey.associatedDomains,
    ]

    /// Reads `profile` for the app `bundleID` (required when its App ID is a wildcard, checked
    /// against it when explicit), at `date`.
    public init(_ profile: ProvisioningProfile, bundleID given: BundleID?, at date: Date) throws(XcodeProjectError) {
        guard let team = profile.teamID else { throw XcodeProjectError(.shape, "the profile names no team (TeamIdentifier)") }
        guard let pattern = profile.appIDPattern else {
            throw XcodeProjectError(.shape, "the profile has no App ID (its application-identifier entitlement)")
        }
        let prefixText = String(pattern.rawValue.prefix { $0 != "." })
        guard let prefix = try? TeamID(prefixText) else {
            throw XcodeProjectError(.shape, "the profile's App ID \(pattern) has no app ID prefix")
        }
        if pattern.isWildcard {
            guard let given else {
                throw XcodeProjectError(.shape, "the profile's App ID is the wildcard \(pattern): give the app's --bundle-id")
            }
            guard pattern.matches(AppID(prefix: prefix, bundleID: given)) else {
                throw XcodeProjectError(.shape, "--bundle-id \(given) is not covered by the profile's App ID \(pattern)")
            }
            bundleID = given
        } else {
            let named = try? AppID(pattern.rawValue)
            guard let named else { throw XcodeProjectError(.shape, "the profile's App ID \(pattern) is not an app ID") }
            if let given, given != named.bundleID {
                throw XcodeProjectError(.shape, "--bundle-id \(given) is not the profile's App ID \(pattern): leave it out, or give its profile")
            }
            bundleID = named.bundleID
        }
        self.team = team
        bundleSeedID = prefix == team ? nil : prefix
        isWildcard = pattern.isWildcard
        platform = profile.isForMac ? .macos : .ios
        // A Mac development profile grants no get-task-allow: its method says what it is.
        kind = profile.method == .development ? .development : .distribution
        let days = Int((profile.expirationDate.timeIntervalSince(profile.creationDate) / 86_400).rounded(.up))
        validDays = min(max(days, 1), 3650)
        expired = profile.expirationDate <= date
        appGroups = isWildcard ? [] : profile.entitlements.applicationGroups ?? []
        grants = [:]
        notes = []
        if let devices = profile.provisionedDevices {
            notes.append("the profile lists \(devices.count) devices: the world's iPhone and Mac stand in for them")
        }
        if expired {
            notes.append(
                "the profile expired on \(profile.expirationDate.formatted(.iso8601)): so does the world's, and devices refuse the app (profile-dates) until you renew it"
            )
        }
        readGrants(profile.entitlements, prefix: prefix)
    }

    /// What the portal granted beyond the rule: extra keychain groups, associated domains or app
    /// groups where the lab gives none (a wildcard App ID), and every other entitlement as it is.
    private mutating func readGrants(_ entitlements: Entitlements, prefix: TeamID) {
        let usual: Set<String> = [prefix.prefix + "*", AccessGroup.token.rawValue]
        if let groups = entitlements.keychainAccessGroups {
            let extra = groups.filter { !usual.contains($0) }
            if !extra.isEmpty { grants[EntitlementKey.keychainAccessGroups] = .array(extra.map(PlistValue.string)) }
        }
        if isWildcard {
            for key in [EntitlementKey.applicationGroups, EntitlementKey.associatedDomains] where entitlements[key] != nil {
                grants[key] = entitlements[key]
            }
        }
        for (key, value) in entitlements.values where !Self.givenByRule.contains(key) {
            grants[key] = value
        }
    }
}
