import AppIdentity
import Foundation
import WorldFile

/// What Apple's developer portal would put in an app's provisioning profile.
enum ProfileFactory {
    /// The entitlements a profile allows for `app` of `team`: its App ID (explicit or wildcard), the
    /// team, `PREFIX.*` keychain groups and the token group, `get-task-allow` for development, and for
    /// explicit App IDs the team's registered app groups, any associated domain and, for an App
    /// Clip, `on-demand-install-capable`; then what the world's `profile: grants:` adds.
    static func allowedEntitlements(for app: App, team: Team) -> Entitlements {
        var allowed = Entitlements()
        let appID = app.appIDKind == .explicit ? AppIDPattern(explicit: app.appID) : AppIDPattern(wildcard: app.appIDPrefix)
        allowed[app.platform.applicationIdentifierKey] = .string(appID.rawValue)
        allowed[EntitlementKey.teamIdentifier] = .string(team.id.rawValue)
        var groups: [PlistValue] = [.string(app.appIDPrefix.prefix + "*"), .string(AccessGroup.token.rawValue)]
        if team.isPlatform {
            groups.append(.string(AccessGroup.savedPasswords.rawValue))
            // Apple's own processes may be denied the keychain outright.
            allowed[EntitlementKey.keychainDeny] = .bool(true)
        }
        allowed[EntitlementKey.keychainAccessGroups] = .array(groups)
        allowed[EntitlementKey.getTaskAllow] = .bool(app.profile.kind == .development)
        if app.appIDKind == .explicit {
            if !team.appGroups.isEmpty {
                allowed[EntitlementKey.applicationGroups] = .array(team.appGroups.map(PlistValue.string))
            }
            allowed[EntitlementKey.associatedDomains] = .string("*")
            // The portal gives an App Clip's App ID the On Demand Install capability.
            if app.entitlements.isAppClip {
                allowed[EntitlementKey.onDemandInstallCapable] = .bool(true)
            }
        }
        for (key, granted) in app.profile.grants.values {
            if case .array(let given)? = allowed[key], case .array(let more) = granted {
                allowed[key] = .array(given + more)
            } else {
                allowed[key] = granted
            }
        }
        return allowed
    }

    /// The profile for `app`, listing `certificate` as the one that may sign it.
    static func profile(for app: App, team: Team, world: World, certificate: Data, now: Date) -> ProvisioningProfile {
        let lifetime = Double(app.profile.validDays) * 86_400
        let created = app.profile.expired ? now.addingTimeInterval(-lifetime - 86_400) : now.addingTimeInterval(-60)
        let devices =
            app.profile.kind == .development
            ? (app.profile.devices ?? []).compactMap { world.device($0)?.udid }
            : nil
        let name =
            app.profile.kind == .development
            ? "\(app.platform) Team Provisioning Profile: \(app.bundleID)"
            : "\(app.bundleID) Distribution"
        return ProvisioningProfile(
            name: name,
            appIDName: app.name,
            applicationIdentifierPrefixes: [app.appIDPrefix],
            teamIdentifiers: [team.id],
            teamName: team.name,
            platforms: [app.platform.profileName],
            entitlements: allowedEntitlements(for: app, team: team),
            developerCertificates: [certificate],
            provisionedDevices: devices,
            creationDate: created,
            expirationDate: created.addingTimeInterval(lifetime),
            uuid: UUID().uuidString.lowercased()
        )
    }
}
