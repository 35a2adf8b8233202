import AppIdentity
import WorldBuilder
public import WorldFile

extension WorldGraph {
    /// The graph of `world`: each app's groups as a device forms them from the signature
    /// `kclab world build` gives it, and the groups shared.
    ///
    /// The list is the one keychaind decides every call against, made by the same two rules:
    /// ``Entitlements/accessGroups(validatedByProfile:)`` (Apple's order) and
    /// ``Platform/heldAccessGroups(_:hasApplicationIdentifier:)`` (the token group on the build's
    /// platform). An app whose profile does not allow its entitlements
    /// (``WorldBuilder/entitlementRefusals(of:in:)``) is refused at install and holds nothing.
    /// The token group is listed but is never a region: it is read-only, so nothing is shared
    /// through it.
    public init(_ world: World) {
        var byTeam: [TeamID: [Build]] = [:]
        for app in world.apps {
            byTeam[app.team, default: []].append(Self.build(of: app, refusals: WorldBuilder.entitlementRefusals(of: app, in: world)))
        }
        let teams = world.teams.sorted { $0.id < $1.id }.map { team in
            TeamEntry(id: team.id, name: team.name, builds: (byTeam[team.id] ?? []).sorted { $0.id < $1.id })
        }
        var holders: [AccessGroup: Set<Build.ID>] = [:]
        var teamOf: [Build.ID: TeamID] = [:]
        for build in teams.flatMap(\.builds) {
            teamOf[build.id] = build.team
            for held in build.groups where held.source != .token {
                holders[held.group, default: []].insert(build.id)
            }
        }
        let regions = holders.filter { $0.value.count > 1 }.map { group, members in
            Region(group: group, members: members.sorted(), teams: Set(members.compactMap { teamOf[$0] }).sorted())
        }
        self.init(name: world.name, teams: teams, regions: regions.sorted { $0.group < $1.group })
    }

    /// One build of `app`: its groups, or none when the installer refuses it.
    static func build(of app: App, refusals: [Refusal]) -> Build {
        let id = Build.ID(bundleID: app.bundleID, platform: app.platform)
        guard refusals.isEmpty else {
            return Build(id: id, name: app.name, team: app.team, groups: [], refusals: refusals)
        }
        let signed = app.signedEntitlements
        let entitled = signed.accessGroups(validatedByProfile: app.profile.exists)
        let held = app.platform.heldAccessGroups(entitled, hasApplicationIdentifier: signed.applicationIdentifier != nil)
        let sources = Self.sources(of: held, in: signed)
        let groups = zip(held, sources).enumerated().map { index, pair in
            HeldGroup(group: pair.0, source: pair.1, isDefault: index == 0 && pair.1 != .token)
        }
        return Build(id: id, name: app.name, team: app.team, groups: groups, refusals: [])
    }

    /// Where each of `groups` comes from. The list is the entitlements' parts concatenated, so
    /// each group is taken from the first part, in Apple's order, that still holds it: a group
    /// named twice (a Mac app group spelled as its application identifier) is labelled by both.
    static func sources(of groups: [AccessGroup], in entitlements: Entitlements) -> [HeldGroup.Source] {
        var parts: [(source: HeldGroup.Source, names: [String])] = [
            (.keychainAccessGroups, entitlements.keychainAccessGroups ?? []),
            (.associatedApplicationIdentifier, entitlements.associatedApplicationIdentifiers ?? []),
            (.applicationIdentifier, entitlements.applicationIdentifier.map { [$0] } ?? []),
            (.applicationGroup, entitlements.applicationGroups ?? []),
        ]
        return groups.map { group in
            if group == .token { return .token }
            for index in parts.indices {
                if let found = parts[index].names.firstIndex(of: group.rawValue) {
                    parts[index].names.remove(at: found)
                    return parts[index].source
                }
            }
            return .keychainAccessGroups
        }
    }
}
