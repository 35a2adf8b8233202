import AppIdentity
public import WorldGraph

/// The World page's view model, the console's first screen: every team, its apps with a row per
/// platform build, each build's access groups in Apple's order (keychain-access-groups, then the
/// application identifier, then app groups) with the default marked, and each refused install
/// with its reasons. Built from ``WorldGraph``, which forms the groups as a device does; the page
/// decides nothing of its own.
///
/// Plain values only, and none optional: a missing value in a Mustache section would be looked
/// up in the enclosing ones instead. Names are made visible (``OverlapLayout/visible(_:)``);
/// the template escapes them.
public struct WorldPage: Sendable {
    /// The world's name.
    public var world: String
    /// `11 app builds of 3 teams; 4 groups shared; 1 refused at install.`
    public var summary: String
    /// The console's pages, this one current.
    public var navigation: [NavigationLink]
    /// Every team, by team ID.
    public var teams: [Team]

    /// A team and its builds.
    public struct Team: Sendable {
        /// The team ID.
        public var id: String
        /// The team's name.
        public var name: String
        /// Its builds, by bundle ID then platform.
        public var apps: [AppRow]
        /// Whether it has any.
        public var hasApps: Bool
    }

    /// One platform build of an app.
    public struct AppRow: Sendable {
        /// The app's name.
        public var name: String
        /// Its bundle ID.
        public var bundleID: String
        /// `iOS`, `macOS`.
        public var platform: String
        /// `ios`, `macos`: the row's `data-platform`.
        public var platformKey: String
        /// Its groups in Apple's order; none when it is refused.
        public var groups: [GroupCell]
        /// Whether it holds any.
        public var hasGroups: Bool
        /// Whether a device's installer refuses it.
        public var refused: Bool
        /// Why, one line per rule broken.
        public var refusals: [RefusalLine]
        /// Whether it is installed but holds no group.
        public var holdsNone: Bool
        /// Whether it holds groups but shares none with another build.
        public var sharesNothing: Bool
    }

    /// One group of a build's list.
    public struct GroupCell: Sendable {
        /// Its place in the list, from 1.
        public var position: Int
        /// The group.
        public var name: String
        /// Where it comes from (``WorldGraph/HeldGroup/Source``): `keychain-access-groups`,
        /// `application identifier`, `app group`…
        public var source: String
        /// Whether it is the build's default group, where `SecItemAdd` puts an item whose call
        /// names no group.
        public var isDefault: Bool
        /// Whether another build holds it too.
        public var shared: Bool
        /// The region's label in the overlap picture (`A`, `B`…) when it is shared, else empty.
        public var region: String
        /// Whether it is the read-only token group of a Mac.
        public var readOnly: Bool
    }

    /// One reason an install is refused.
    public struct RefusalLine: Sendable {
        /// The rule: `entitlement-not-allowed`…
        public var rule: String
        /// What broke it.
        public var detail: String
    }

    /// The page of `graph`.
    public init(_ graph: WorldGraph) {
        let show = OverlapLayout.visible
        let labels = Dictionary(uniqueKeysWithValues: graph.regions.enumerated().map { ($1.group, WorldGraph.label(ofRegion: $0)) })
        world = show(graph.name)
        let refused = graph.builds.filter(\.isRefused).count
        summary =
            "\(graph.builds.count) app builds of \(graph.teams.count) teams; \(graph.regions.count) groups shared; "
            + "\(refused) refused at install."
        navigation = NavigationLink.all(current: .world)
        teams = graph.teams.map { team in
            let apps = team.builds.map { build in
                AppRow(
                    name: show(build.name),
                    bundleID: build.id.bundleID.rawValue,
                    platform: build.id.platform.description,
                    platformKey: build.id.platform.rawValue,
                    groups: build.groups.enumerated().map { index, held in
                        GroupCell(
                            position: index + 1,
                            name: show(held.group.rawValue),
                            source: held.source.rawValue,
                            isDefault: held.isDefault,
                            shared: labels[held.group] != nil,
                            region: labels[held.group] ?? "",
                            readOnly: held.source == .token
                        )
                    },
                    hasGroups: !build.groups.isEmpty,
                    refused: build.isRefused,
                    refusals: build.refusals.map { RefusalLine(rule: $0.rule.rawValue, detail: show($0.detail)) },
                    holdsNone: !build.isRefused && build.groups.isEmpty,
                    sharesNothing: !build.groups.isEmpty && graph.regions(of: build.id).isEmpty
                )
            }
            return Team(id: team.id.rawValue, name: show(team.name), apps: apps, hasApps: !apps.isEmpty)
        }
    }
}
