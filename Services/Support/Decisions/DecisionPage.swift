/// Some of a daemon's decisions, oldest first, and where a reader goes on from: the answer of an
/// audit route read a page at a time (`after=next` until `next` reaches `latest`).
public struct DecisionPage<Rule: DecisionRule>: Codable, Hashable, Sendable {
    public var entries: [Decision<Rule>]
    /// The sequence number to read on from (`after=`): the last decision the read looked at, of
    /// any device, or the latest once it reached the end.
    public var next: Int64
    /// The sequence number of the daemon's latest decision, of any device (0 before the first).
    public var latest: Int64
    /// How many decisions after `after`, of any device, the daemon no longer kept in memory: only
    /// its audit file has them.
    public var dropped: Int64

    public init(entries: [Decision<Rule>], next: Int64 = 0, latest: Int64 = 0, dropped: Int64 = 0) {
        self.entries = entries
        self.next = next
        self.latest = latest
        self.dropped = dropped
    }

    /// Whether the daemon holds decisions after this answer: read again with `after=next`.
    public var hasMore: Bool { next < latest }
}
