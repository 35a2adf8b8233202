public import Foundation

/// A zone of the cloud: one view of one iCloud account (CKKS keeps one CloudKit zone per view).
public struct ZoneID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let account: String
    public let view: String

    public init(account: String, view: String) {
        self.account = account
        self.view = view
    }

    public var description: String { "\(account)/\(view)" }
}

/// A record as the cloud keeps it: an item sealed by the device (the service cannot read it),
/// its UUID and the change tag the cloud gave its last save.
public struct CloudRecord: Sendable, Hashable, Codable {
    public let uuid: UUID
    public let changeTag: String
    public let payload: Data

    public init(uuid: UUID, changeTag: String, payload: Data) {
        self.uuid = uuid
        self.changeTag = changeTag
        self.payload = payload
    }
}

/// One change in a zone's log.
public enum RecordChange: Sendable, Hashable {
    case saved(CloudRecord)
    case deleted(UUID)

    public var uuid: UUID {
        switch self {
        case .saved(let record): record.uuid
        case .deleted(let uuid): uuid
        }
    }
}

/// Where the zones live: records and each zone's change log, written atomically (SQLite in
/// cloudd; the scale issue's PostgreSQL behind the same protocol).
public protocol ZoneStorage: Sendable {
    /// The record `uuid` of `zone`, if it exists.
    func record(_ uuid: UUID, in zone: ZoneID) throws -> CloudRecord?
    /// In one write transaction: `decide` reads the zone's current records (through the
    /// function it is given) and returns the changes to make, which are applied in order, each
    /// taking the next number of the zone's log, all or none; then what `decide` returned besides,
    /// and the number of the zone's last change once the transaction committed (what
    /// ``latest(in:)`` would read then, without another read).
    @discardableResult
    func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> (result: Result, latest: Int)
    /// Every record of the zone, by UUID.
    func records(in zone: ZoneID) throws -> [CloudRecord]
    /// The zone's changes numbered after `sequence`, oldest first, at most `limit`; the number of
    /// its last change (0 for an empty zone); and the number its last ``erase(_:)`` took (0: never
    /// erased), below which the log holds nothing: all three from one snapshot.
    func changes(
        in zone: ZoneID,
        after sequence: Int,
        limit: Int
    ) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int, erased: Int)
    /// The number of the zone's last change (0 for an empty zone), in one read: what a device
    /// waiting for news compares its token with.
    func latest(in zone: ZoneID) throws -> Int
    /// Empties the zone in one write transaction (`kclab reset`): its records and its whole log
    /// go. The numbering goes on: the erase takes the next number, so the zone's last change
    /// grows as it always does (a replica's known number stays true, and a waiting device hears
    /// of it), and a token given before the erase is older than the log (``CloudZones`` answers
    /// it `tokenExpired`). A zone with nothing since its last erase (or ever) is left as it is.
    @discardableResult
    func erase(_ zone: ZoneID) throws -> ZoneErasure
    /// How many calls the store serves at once (its connections); cloudd gives its blocking
    /// calls at least this many threads, so a round trip to a database server holds no other call.
    var concurrentCalls: Int { get }
    /// Closes the store's connections, once no call is left (cloudd's last step at shutdown).
    func close()
}

/// What ``ZoneStorage/erase(_:)`` removed from a zone.
public struct ZoneErasure: Sendable, Hashable {
    /// The records removed.
    public let records: Int
    /// The entries of the zone's log removed: 0 when there was nothing to erase.
    public let changes: Int
    /// The number of the zone's last change once erased: the erase's own, or the zone's number as
    /// it was when there was nothing to erase.
    public let latest: Int

    public init(records: Int, changes: Int, latest: Int) {
        self.records = records
        self.changes = changes
        self.latest = latest
    }

    /// Whether the zone had anything to erase (its log moved).
    public var erased: Bool { changes > 0 }
}

/// A store that cannot be reached now (its server is down, restarting or not answering): the
/// call may be tried again. Nothing of it was applied, unless the answer lost was a commit's
/// (`PostgresZoneStorage`): then a retried write meets its own record as a conflict. cloudd
/// answers 503 `storeUnavailable`.
public struct ZoneStoreUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
