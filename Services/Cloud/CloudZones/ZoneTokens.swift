import Synchronization

/// The number of each zone's last change as one cloudd knows it, from its own writes and reads
/// and from the notifications of other replicas' writes: so that a device's wait, which only
/// asks whether it is behind, needs no store call. A cloudd on one database with its replicas
/// knows of their writes only through its change feeds, so the numbers are trusted only while
/// every feed listens; a feed's loss or return forgets them all and starts a new era, and a
/// number read in an earlier era is not kept (it may predate a write no feed reported).
/// Numbers only grow: a zone's log is never renumbered.
public final class ZoneTokens: Sendable {
    private struct State {
        var latest: [ZoneID: Int] = [:]
        var era = 0
        /// The feeds not listening now (all, until each first listens).
        var down: Set<Int>
    }

    /// The most zones remembered; past it every number is forgotten and read again as needed.
    static let capacity = 100_000

    private let state: Mutex<State>

    /// Numbers for a cloudd with `feeds` change feeds (0: it has no replica to hear of).
    public init(feeds: Int) {
        state = Mutex(State(down: Set(0..<feeds)))
    }

    /// The era now: taken before a read of the store, given back with what it read.
    public var era: Int { state.withLock { $0.era } }

    /// The number of `zone`'s last change, if known and trusted now.
    public func latest(_ zone: ZoneID) -> Int? {
        state.withLock { $0.down.isEmpty ? $0.latest[zone] : nil }
    }

    /// `zone`'s last change was `latest` when a read or a write begun in `era` ended.
    public func note(_ zone: ZoneID, _ latest: Int, readIn era: Int) {
        state.withLock { state in
            guard state.era == era else { return }
            Self.remember(zone, latest, in: &state)
        }
    }

    /// A feed reported `zone`'s last change, `latest`.
    public func heard(_ zone: ZoneID, _ latest: Int) {
        state.withLock { state in Self.remember(zone, latest, in: &state) }
    }

    /// Keeps `latest` for `zone` while every feed listens, the larger of it and what was known.
    private static func remember(_ zone: ZoneID, _ latest: Int, in state: inout State) {
        guard state.down.isEmpty else { return }
        if state.latest.count >= capacity, state.latest[zone] == nil { state.latest.removeAll() }
        state.latest[zone] = max(state.latest[zone] ?? 0, latest)
    }

    /// Feed `feed` listens (again).
    public func feedListens(_ feed: Int) {
        state.withLock { state in
            guard state.down.remove(feed) != nil else { return }
            state.era += 1
            state.latest.removeAll()
        }
    }

    /// Feed `feed` stopped listening: what others write is unheard until it listens again.
    public func feedLost(_ feed: Int) {
        state.withLock { state in
            guard state.down.insert(feed).inserted else { return }
            state.era += 1
            state.latest.removeAll()
        }
    }
}
