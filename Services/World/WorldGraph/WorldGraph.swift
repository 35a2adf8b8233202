public import AppIdentity

/// A world's access groups as values, before any drawing: every team with its apps (a row per
/// platform build), each app's groups in Apple's order with the default marked, and the groups two
/// or more apps hold, which seed 000 calls "a region of overlap to share items".
///
/// Every list is sorted (teams by ID, builds by bundle ID then platform, regions by group), so
/// that the same world gives the same graph whatever the order of its file.
public struct WorldGraph: Hashable, Sendable {
    /// The world's name.
    public var name: String
    /// Every team of the world, by team ID, each with its builds.
    public var teams: [TeamEntry]
    /// The groups held by two or more builds, by group name.
    public var regions: [Region]

    /// A graph from its parts; ``init(_:)`` makes one from a world.
    public init(name: String, teams: [TeamEntry], regions: [Region]) {
        self.name = name
        self.teams = teams
        self.regions = regions
    }

    /// Every build, team by team.
    public var builds: [Build] {
        teams.flatMap(\.builds)
    }

    /// The build with this ID.
    public func build(_ id: Build.ID) -> Build? {
        builds.first { $0.id == id }
    }

    /// The regions `id` is a member of, by group name.
    public func regions(of id: Build.ID) -> [Region] {
        regions.filter { $0.members.contains(id) }
    }

    /// The builds that share no group with another build (refused ones among them), in order.
    public var sharingNothing: [Build.ID] {
        let sharing = Set(regions.flatMap(\.members))
        return builds.map(\.id).filter { !sharing.contains($0) }
    }

    /// The region holding `group`, if two or more builds hold it.
    public func region(_ group: AccessGroup) -> Region? {
        regions.first { $0.group == group }
    }

    /// The label of the `index`th region, as the picture and the text name it: A to Z, then AA, AB…
    public static func label(ofRegion index: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var number = index
        var label = ""
        repeat {
            label = String(letters[number % 26]) + label
            number = number / 26 - 1
        } while number >= 0
        return label
    }
}

extension WorldGraph {
    /// A development team and the builds it signs.
    public struct TeamEntry: Hashable, Sendable {
        /// The team ID.
        public var id: TeamID
        /// The team's name.
        public var name: String
        /// Its builds, by bundle ID then platform.
        public var builds: [Build]

        /// A team entry from its parts.
        public init(id: TeamID, name: String, builds: [Build]) {
            self.id = id
            self.name = name
            self.builds = builds
        }
    }

    /// A group two or more builds hold: a region of overlap, named by the group.
    public struct Region: Hashable, Sendable, Identifiable {
        /// The group.
        public var group: AccessGroup
        /// The builds holding it, in order.
        public var members: [Build.ID]
        /// The teams of its members, in order: one, unless a profile grants a group across teams.
        public var teams: [TeamID]

        /// A region from its parts.
        public init(group: AccessGroup, members: [Build.ID], teams: [TeamID]) {
            self.group = group
            self.members = members
            self.teams = teams
        }

        /// A region is known by its group.
        public var id: AccessGroup { group }
    }
}
