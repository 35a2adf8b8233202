/// The overlap picture as coordinates, in whole pixels, ready for the SVG template: a band per
/// team with a row per build (its name, then its groups in Apple's order as chips), and a column
/// per region of overlap to the right, whose bar joins the rows of the builds that hold the group.
/// Another team's app is in another band, so it is outside every region it does not hold.
///
/// Only integers and text: nothing is formatted from a floating-point number, so the same graph
/// gives the same bytes everywhere. Every text is already made safe to show
/// (``OverlapLayout/visible(_:)``); the template escapes it for SVG.
public struct OverlapLayout: Hashable, Sendable {
    /// The picture's width, in pixels.
    public var width: Int
    /// The picture's height, in pixels.
    public var height: Int
    /// The picture's title.
    public var title: Label
    /// The two lines under the title that say how to read the picture.
    public var subtitles: [Label]
    /// A band per team, top to bottom.
    public var bands: [Band]
    /// A column per region, left to right, in the graph's order.
    public var columns: [Column]
    /// A row per build, top to bottom.
    public var rows: [Row]
    /// The legend's heading, under the bands.
    public var legendTitle: Label
    /// A legend line per region.
    public var legend: [LegendEntry]
    /// What the marks mean: the default, and the token group when a build holds it.
    public var legendNotes: [Label]

    /// A line of text whose baseline starts at (`x`, `y`).
    public struct Label: Hashable, Sendable {
        /// Where the text starts.
        public var x: Int
        /// Its baseline.
        public var y: Int
        /// The text, already made visible (``OverlapLayout/visible(_:)``); the template escapes it.
        public var text: String
    }

    /// A team's band: a rounded rectangle behind its rows, with its title.
    public struct Band: Hashable, Sendable {
        /// The band's left edge.
        public var x: Int
        /// Its top edge.
        public var y: Int
        /// Its width: the picture's, less the margins.
        public var width: Int
        /// Its height: the title, then a row per build.
        public var height: Int
        /// `Example Inc. (ABCDE12345)`.
        public var title: Label
        /// The team ID.
        public var team: String
    }

    /// One build's row.
    public struct Row: Hashable, Sendable {
        /// The build's bundle ID, for the SVG's `data-bundle-id`.
        public var bundleID: String
        /// Its platform (`ios`, `macos`), for `data-platform`.
        public var platform: String
        /// Its team ID, for `data-team`.
        public var team: String
        /// The app's name.
        public var name: Label
        /// Its bundle ID and platform, beneath the name.
        public var detail: Label
        /// Its groups in Apple's order.
        public var chips: [Chip]
        /// What follows the chips: refused at install, no group, or shares nothing (at most one).
        public var notes: [Note]
        /// Whether the installer refuses the build.
        public var refused: Bool
    }

    /// One group of a row: a rounded rectangle with `1. GROUP (default) [A]` in it.
    public struct Chip: Hashable, Sendable {
        /// The chip's left edge.
        public var x: Int
        /// Its top edge.
        public var y: Int
        /// Its width, from its text's.
        public var width: Int
        /// Its height.
        public var height: Int
        /// Its text.
        public var label: Label
        /// The group's name.
        public var group: String
        /// Where the group comes from (``WorldGraph/HeldGroup/Source``), shown as its tooltip.
        public var source: String
        /// The region's colour when the group is shared, else empty.
        public var color: String
        /// Whether another build holds the group too.
        public var shared: Bool
        /// Whether it is the build's default group.
        public var isDefault: Bool
        /// Whether it is the read-only token group, drawn dashed.
        public var isToken: Bool
    }

    /// A note after a row's chips, with the whole reason as its tooltip.
    public struct Note: Hashable, Sendable {
        /// The note.
        public var label: Label
        /// The whole reason, shown when the pointer rests on the note.
        public var tooltip: String
        /// `refused`, `none` or `alone`: the note's CSS class.
        public var kind: String
    }

    /// A region's column: its badge at the top, and a bar from its first member's row to its
    /// last with a dot on each member's row.
    public struct Column: Hashable, Sendable {
        /// The region's label: A, B, …
        public var label: String
        /// Its group.
        public var group: String
        /// Its members' bundle IDs, separated by spaces, for `data-members`.
        public var members: String
        /// Its colour.
        public var color: String
        /// The column's centre, and its badge's.
        public var x: Int
        /// The badge's centre, above the bands.
        public var badgeY: Int
        /// The bar's left edge.
        public var barX: Int
        /// The bar's top: its first member's row.
        public var barY: Int
        /// The bar's width.
        public var barWidth: Int
        /// The bar's height, down to its last member's row.
        public var barHeight: Int
        /// A dot per member, on its row.
        public var dots: [Dot]
    }

    /// A member's dot in a region's column.
    public struct Dot: Hashable, Sendable {
        /// The dot's centre.
        public var x: Int
        /// The centre of its member's row.
        public var y: Int
        /// The member's bundle ID.
        public var bundleID: String
        /// The region's colour.
        public var color: String
    }

    /// A legend line: a region's badge, then its group and who holds it.
    public struct LegendEntry: Hashable, Sendable {
        /// The region's label.
        public var label: String
        /// Its colour.
        public var color: String
        /// The badge's centre.
        public var badgeX: Int
        /// The badge's centre, just above the text's baseline.
        public var badgeY: Int
        /// `GROUP: App One, App Two`.
        public var text: Label
    }
}
