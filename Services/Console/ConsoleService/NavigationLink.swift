/// A link of the console's navigation bar, to one of its pages.
public struct NavigationLink: Sendable {
    /// The console's pages, in the order of the bar.
    public enum Page: String, Sendable, CaseIterable {
        /// The world: teams, apps and their groups (`/`).
        case world
        /// The overlap picture (`/overlap`).
        case overlap
        /// The devices and each one's items (`/devices`).
        case devices
        /// Device × app × domain (`/associations`).
        case associations
        /// The live feed of decisions (`/decisions`).
        case decisions

        /// The page's path.
        public var path: String {
            switch self {
            case .world: "/"
            case .overlap: "/overlap"
            case .devices: "/devices"
            case .associations: "/associations"
            case .decisions: "/decisions"
            }
        }

        /// The link's text.
        public var label: String {
            switch self {
            case .world: "World"
            case .overlap: "Overlap"
            case .devices: "Devices"
            case .associations: "Associations"
            case .decisions: "Decisions"
            }
        }
    }

    /// Where it goes.
    public var href: String
    /// Its text.
    public var label: String
    /// Whether it is the page shown (`aria-current="page"`).
    public var current: Bool

    /// A link to every page, `current` marked.
    public static func all(current: Page) -> [NavigationLink] {
        Page.allCases.map { NavigationLink(href: $0.path, label: $0.label, current: $0 == current) }
    }
}
