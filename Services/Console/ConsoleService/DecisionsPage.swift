/// The Decisions page's view model: the latest decisions the feed holds, newest first, narrowed
/// by the filters of its address (`/decisions?device=&app=&status=`), each row with three levels
/// of detail (the one-line verdict; the rule, what it found and the fix; the daemon's whole
/// record). The page's script adds each new decision at the top as `/events` sends it.
///
/// Plain values only, none optional (see ``WorldPage``); the template escapes every one.
public struct DecisionsPage: Sendable {
    /// The world's name.
    public var world: String
    /// The console's pages, this one current.
    public var navigation: [NavigationLink]
    /// The rows shown, newest first.
    public var rows: [DecisionRow]
    /// Whether there is any.
    public var hasRows: Bool
    /// `Showing the latest 50 of 312 decisions kept (of 312 made since the console started).`
    public var summary: String
    /// The filters as given, for the form.
    public var device: String
    /// The app filter.
    public var app: String
    /// The status filter.
    public var status: String
    /// The world's devices, for the form's list.
    public var devices: [FormChoice]
    /// Where the page's script reads the feed: `/events?…` with the same filters, after the
    /// newest row shown.
    public var stream: String
    /// The decisions daemons made that the feed never received (a daemon's memory dropped them).
    public var missed: Int64
    /// Whether any were.
    public var hasMissed: Bool

    /// How many rows a page shows.
    public static let rowLimit = 200

    /// The page for a world `world` with `devices`, showing `rows` of `kept` (of `made`).
    public init(
        world: String,
        devices: [String],
        filter: (device: String, app: String, status: String),
        rows: [DecisionRow],
        kept: Int,
        made: Int64,
        missed: Int64,
        query: String
    ) {
        self.world = world
        navigation = NavigationLink.all(current: .decisions)
        self.rows = rows
        hasRows = !rows.isEmpty
        summary = "Showing the latest \(rows.count) that match of the \(kept) decisions kept (\(made) made since the console started)."
        (device, app, status) = filter
        self.devices = devices.map { FormChoice(name: $0, selected: $0 == filter.device) }
        let after = rows.first.map { $0.id } ?? made
        stream = "/events?" + (query.isEmpty ? "" : query + "&") + "after=\(after)"
        self.missed = missed
        hasMissed = missed > 0
    }
}
