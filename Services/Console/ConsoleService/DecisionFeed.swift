public import Decisions

/// The decisions the console shows and streams: the latest ``capacity`` that the daemons it
/// follows made, oldest first, each numbered by the console (its event id on `/events`), so a
/// browser that reconnects with `Last-Event-ID` is sent what it missed, if the feed still holds it.
///
/// Numbers start at 1 when the console starts and never go back while it runs; a reader that asks
/// for more than the latest (it read an earlier console) is sent everything the feed holds.
public actor DecisionFeed {
    /// One decision with the console's number for it.
    public struct Event: Sendable, Hashable {
        /// Its event id: 1 for the console's first, each next one 1 more.
        public let id: Int64
        /// What was decided, its rule by name (the console reads several daemons).
        public let decision: Decision<RuleName>
    }

    /// How many decisions the feed keeps: 1,000, the last ones.
    public static let capacity = 1000

    /// The kept events, oldest first: at most `capacity`.
    private var events: [Event] = []
    /// Where the oldest kept event is in `events` once it is full (a ring).
    private var start = 0
    /// The last id given.
    public private(set) var latest: Int64 = 0
    /// How many decisions the daemons made that the feed never saw (their memory dropped them
    /// before the console read them), as the daemons report.
    public private(set) var missed: Int64 = 0
    private let capacity: Int

    /// An empty feed keeping the last `capacity` events.
    public init(capacity: Int = DecisionFeed.capacity) {
        self.capacity = max(1, capacity)
    }

    /// Adds `decisions`, oldest first, numbering each; `missed` counts those a daemon no longer
    /// held when it was read.
    public func append(_ decisions: [Decision<RuleName>], missed: Int64 = 0) {
        self.missed += max(0, missed)
        for decision in decisions {
            latest += 1
            let event = Event(id: latest, decision: decision)
            if events.count < capacity {
                events.append(event)
            } else {
                events[start] = event
                start = (start + 1) % capacity
            }
        }
    }

    /// The kept events after id `after` that `filter` keeps, oldest first, at most `limit`:
    /// everything kept when `after` is beyond the latest (a browser that read an earlier console).
    public func events(after: Int64, matching filter: DecisionFilter = .all, limit: Int = DecisionFeed.capacity) -> [Event] {
        read(after: after, matching: filter, limit: limit).events
    }

    /// ``events(after:matching:limit:)`` and the latest id, read at once: a reader that found
    /// nothing its filter keeps holds everything up to `latest`.
    public func read(after: Int64, matching filter: DecisionFilter = .all, limit: Int = DecisionFeed.capacity) -> (events: [Event], latest: Int64) {
        (found(after: after, matching: filter, limit: limit), latest)
    }

    private func found(after: Int64, matching filter: DecisionFilter, limit: Int) -> [Event] {
        let after = after > latest ? 0 : after
        var found: [Event] = []
        for index in 0..<events.count {
            let event = events[(start + index) % events.count]
            guard event.id > after, filter.keeps(event.decision) else { continue }
            found.append(event)
            if found.count == limit { break }
        }
        return found
    }

    /// The latest `limit` kept events that `filter` keeps, newest first: a page's rows.
    public func newest(matching filter: DecisionFilter = .all, limit: Int) -> [Event] {
        var found: [Event] = []
        for index in stride(from: events.count - 1, through: 0, by: -1) where found.count < limit {
            let event = events[(start + index) % events.count]
            if filter.keeps(event.decision) { found.append(event) }
        }
        return found
    }

    /// How many events the feed holds.
    public var count: Int { events.count }

    /// Whether the console is stopping: every stream ends.
    public private(set) var isClosed = false

    /// Ends every stream of the feed (the console is stopping); the events stay.
    public func close() {
        isClosed = true
    }
}
