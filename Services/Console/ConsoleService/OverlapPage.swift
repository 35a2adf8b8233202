import AppIdentity
public import WorldGraph

/// The Overlap page's view model: the seed's picture of the world (``OverlapPicture``, served at
/// `/overlap.svg` and shown here as an image), with the regions of overlap and the builds that
/// share nothing written out beside it, for a screen reader and for copying.
///
/// Plain values only, none optional (see ``WorldPage``); the template escapes every one.
public struct OverlapPage: Sendable {
    /// The world's name.
    public var world: String
    /// The console's pages, this one current.
    public var navigation: [NavigationLink]
    /// Where the picture is: `/overlap.svg`.
    public var picture: String
    /// The picture's size, in pixels.
    public var width: Int
    /// Its height.
    public var height: Int
    /// The groups two or more builds hold, by group.
    public var regions: [RegionRow]
    /// Whether there is any.
    public var hasRegions: Bool
    /// The builds that share no group: `Snooper (com.other.Snooper, iOS)`.
    public var alone: [String]
    /// Whether there is any.
    public var hasAlone: Bool

    /// A region of overlap.
    public struct RegionRow: Sendable {
        /// Its label in the picture: `A`, `B`…
        public var label: String
        /// The group.
        public var group: String
        /// The builds holding it: `App One (com.example.AppOne, iOS), App Two (…)`.
        public var holders: String
        /// Whether its builds are of two or more teams (a profile granting a group across teams).
        public var acrossTeams: Bool
    }

    /// The page of `picture`, drawn from `graph`.
    public init(_ graph: WorldGraph, picture: OverlapPicture, path: String = "/overlap.svg") {
        let show = OverlapLayout.visible
        let named = { (build: WorldGraph.Build) in "\(show(build.name)) (\(build.id.bundleID), \(build.id.platform))" }
        world = show(graph.name)
        navigation = NavigationLink.all(current: .overlap)
        self.picture = path
        width = picture.layout.width
        height = picture.layout.height
        regions = graph.regions.enumerated().map { index, region in
            RegionRow(
                label: WorldGraph.label(ofRegion: index),
                group: show(region.group.rawValue),
                holders: region.members.compactMap { graph.build($0) }.map(named).joined(separator: ", "),
                acrossTeams: region.teams.count > 1
            )
        }
        hasRegions = !regions.isEmpty
        alone = graph.sharingNothing.compactMap { graph.build($0) }.map(named)
        hasAlone = !alone.isEmpty
    }
}
