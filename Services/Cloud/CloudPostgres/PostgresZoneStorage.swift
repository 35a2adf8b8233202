public import CloudZones
public import Foundation
public import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// cloudd's zones in PostgreSQL (postgres-nio), behind the same ``ZoneStorage`` protocol as
/// SQLite (docs/scale.md). Each batch is one transaction that first locks its zone's row, so the
/// tag check and the write it allows cannot interleave with another writer's, in this process or
/// in another cloudd on the same database, and each zone's log numbers follow each other with no
/// gap and no repeat. A committed batch notifies the ``changeChannel`` (LISTEN/NOTIFY), which
/// every cloudd on the database hears (``PostgresZoneFeed``). Calls share a small pool of
/// connections; one that was lost (the server restarted) is opened again at its next call.
public final class PostgresZoneStorage: ZoneStorage {
    /// The channel a committed batch notifies, with `VIEW/ACCOUNT` (a view's name has no slash).
    public static let changeChannel = "kclab_zone_changes"

    private let slots: [Slot]
    private let next = Atomic<Int>(0)
    private let servers: PostgresServers
    private let logger: Logger
    /// The longest a round trip (or a connection's opening) may take: a server that hangs
    /// without refusing costs a call this long, then a retryable error (docs/scale.md).
    let roundTripLimit: TimeAmount

    /// The schema's versions, applied in order, each once (`schema_versions`).
    static let migrations: [(version: String, sql: [String])] = [
        (
            "zones-v1",
            [
                """
                CREATE TABLE zones (
                    account text NOT NULL, view text NOT NULL, latest bigint NOT NULL DEFAULT 0, PRIMARY KEY (account, view)
                )
                """,
                """
                CREATE TABLE records (
                    account text NOT NULL, view text NOT NULL, uuid uuid NOT NULL, change_tag text NOT NULL, payload bytea NOT NULL,
                    PRIMARY KEY (account, view, uuid)
                )
                """,
                """
                CREATE TABLE changes (
                    account text NOT NULL, view text NOT NULL, sequence bigint NOT NULL, uuid uuid NOT NULL,
                    change_tag text, payload bytea, PRIMARY KEY (account, view, sequence)
                )
                """,
            ]
        ),
        // The number each zone's last erase took (`kclab reset`); its log holds nothing below it.
        ("zones-v2", ["ALTER TABLE zones ADD COLUMN erased bigint NOT NULL DEFAULT 0"]),
    ]

    /// Connects to `servers` (up to `connections` at once, opened as calls need them)
    /// and brings the schema up to date. A round trip that takes longer than `roundTripLimit`
    /// closes its connection and fails the call as ``ZoneStoreUnavailable``.
    public init(
        servers: PostgresServers,
        connections: Int = PostgresLocation.defaultConnections,
        roundTripLimit: Duration = .seconds(10),
        logger: Logger
    ) throws {
        slots = (0..<max(1, connections)).map { _ in Slot() }
        self.servers = servers
        self.logger = logger
        self.roundTripLimit = .nanoseconds(Int64(roundTripLimit / .nanoseconds(1)))
        try migrate()
    }

    /// Closes every connection.
    public func close() {
        for slot in slots {
            slot.lock.lock()
            defer { slot.lock.unlock() }
            _ = try? slot.connection?.close().wait()
            slot.connection = nil
        }
    }

    private func migrate() throws {
        try transaction { session in
            // One migrator at a time, whichever cloudd starts first.
            try session.run("SELECT pg_advisory_xact_lock(7705)")
            try session.run("CREATE TABLE IF NOT EXISTS schema_versions (version text PRIMARY KEY)")
            for (version, statements) in Self.migrations {
                guard try session.run("SELECT version FROM schema_versions WHERE version = \(version)").rows.isEmpty else { continue }
                for statement in statements { try session.run(PostgresQuery(unsafeSQL: statement)) }
                try session.run("INSERT INTO schema_versions (version) VALUES (\(version))")
            }
        }
    }

    public func record(_ uuid: UUID, in zone: ZoneID) throws -> CloudRecord? {
        try withSession { session in try Self.record(uuid, zone, session) }
    }

    @discardableResult
    public func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> (result: Result, latest: Int) {
        try transaction { session in
            // Creates the zone's row or takes the one there, locked until commit either way (an
            // upsert locks the row it updates), and reads its last number: one round trip.
            let locked = try session.run(
                """
                INSERT INTO zones (account, view) VALUES (\(zone.account), \(zone.view))
                ON CONFLICT (account, view) DO UPDATE SET latest = zones.latest RETURNING latest
                """
            )
            var sequence = try locked.rows.first?.decode(Int.self) ?? 0
            let (changes, result) = try decide { uuid in try Self.record(uuid, zone, session) }
            for change in changes {
                sequence += 1
                switch change {
                case .saved(let record):
                    try session.run(
                        """
                        WITH saved AS (
                            INSERT INTO records (account, view, uuid, change_tag, payload)
                            VALUES (\(zone.account), \(zone.view), \(record.uuid), \(record.changeTag), \(record.payload))
                            ON CONFLICT (account, view, uuid) DO UPDATE SET change_tag = EXCLUDED.change_tag, payload = EXCLUDED.payload
                        )
                        INSERT INTO changes (account, view, sequence, uuid, change_tag, payload)
                        VALUES (\(zone.account), \(zone.view), \(sequence), \(record.uuid), \(record.changeTag), \(record.payload))
                        """
                    )
                case .deleted(let uuid):
                    try session.run(
                        """
                        WITH gone AS (DELETE FROM records WHERE account = \(zone.account) AND view = \(zone.view) AND uuid = \(uuid))
                        INSERT INTO changes (account, view, sequence, uuid) VALUES (\(zone.account), \(zone.view), \(sequence), \(uuid))
                        """
                    )
                }
            }
            if !changes.isEmpty {
                // The notification is sent at commit, and only then.
                try session.run(
                    """
                    WITH moved AS (
                        UPDATE zones SET latest = \(sequence) WHERE account = \(zone.account) AND view = \(zone.view) RETURNING view
                    )
                    SELECT pg_notify(\(Self.changeChannel), \(ZoneNotification(zone: zone, latest: sequence).payload)) FROM moved
                    """
                )
            }
            return (result, sequence)
        }
    }

    public func records(in zone: ZoneID) throws -> [CloudRecord] {
        try withSession { session in
            let query: PostgresQuery =
                "SELECT uuid, change_tag, payload FROM records WHERE account = \(zone.account) AND view = \(zone.view) ORDER BY uuid"
            return try session.run(query).rows.map { row in
                let (uuid, tag, payload) = try row.decode((UUID, String, Data).self)
                return CloudRecord(uuid: uuid, changeTag: tag, payload: payload)
            }
        }
    }

    public func changes(
        in zone: ZoneID,
        after sequence: Int,
        limit: Int
    ) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int, erased: Int) {
        try withSession { session in
            // The zone's numbers and the page in one statement (one snapshot, one round trip): a
            // zone with no row has no change; one with none after `sequence`, a row of nulls.
            let page: PostgresQuery = """
                SELECT zones.latest, zones.erased, page.sequence, page.uuid, page.change_tag, page.payload FROM zones
                LEFT JOIN LATERAL (
                    SELECT sequence, uuid, change_tag, payload FROM changes
                    WHERE account = zones.account AND view = zones.view AND sequence > \(sequence) ORDER BY sequence LIMIT \(limit)
                ) page ON true
                WHERE zones.account = \(zone.account) AND zones.view = \(zone.view) ORDER BY page.sequence
                """
            var (latest, erased) = (0, 0)
            var changes: [(sequence: Int, change: RecordChange)] = []
            for row in try session.run(page).rows {
                let (last, erasure, number, uuid, tag, payload) = try row.decode((Int, Int, Int?, UUID?, String?, Data?).self)
                (latest, erased) = (last, erasure)
                guard let number, let uuid else { continue }
                guard let tag, let payload else {
                    changes.append((number, .deleted(uuid)))
                    continue
                }
                changes.append((number, .saved(CloudRecord(uuid: uuid, changeTag: tag, payload: payload))))
            }
            return (changes, latest, erased)
        }
    }

    @discardableResult
    public func erase(_ zone: ZoneID) throws -> ZoneErasure {
        try transaction { session in
            // The zone's row, locked until commit as a batch locks it, so that no batch of this
            // process or another cloudd interleaves with the erase. No row: the zone never changed.
            let locked = try session.run("SELECT latest FROM zones WHERE account = \(zone.account) AND view = \(zone.view) FOR UPDATE")
            guard let latest = try locked.rows.first?.decode(Int.self) else { return ZoneErasure(records: 0, changes: 0, latest: 0) }
            let gone = try session.run(
                """
                WITH changes_gone AS (DELETE FROM changes WHERE account = \(zone.account) AND view = \(zone.view) RETURNING 1),
                records_gone AS (DELETE FROM records WHERE account = \(zone.account) AND view = \(zone.view) RETURNING 1)
                SELECT (SELECT count(*) FROM changes_gone), (SELECT count(*) FROM records_gone)
                """
            )
            let (changes, records) = try gone.rows.first?.decode((Int, Int).self) ?? (0, 0)
            // No change since the last erase, so no record either: nothing moves.
            guard changes > 0 else { return ZoneErasure(records: 0, changes: 0, latest: latest) }
            // The erase takes the next number and tells the other replicas, at commit, as a batch does.
            try session.run(
                """
                WITH moved AS (
                    UPDATE zones SET latest = \(latest + 1), erased = \(latest + 1) WHERE account = \(zone.account) AND view = \(zone.view)
                    RETURNING view
                )
                SELECT pg_notify(\(Self.changeChannel), \(ZoneNotification(zone: zone, latest: latest + 1).payload)) FROM moved
                """
            )
            return ZoneErasure(records: records, changes: changes, latest: latest + 1)
        }
    }

    public func latest(in zone: ZoneID) throws -> Int {
        try withSession { session in
            try session.run("SELECT latest FROM zones WHERE account = \(zone.account) AND view = \(zone.view)").rows.first?.decode(Int.self) ?? 0
        }
    }

    /// One call per connection of the pool.
    public var concurrentCalls: Int { slots.count }

    private static func record(_ uuid: UUID, _ zone: ZoneID, _ session: Session) throws -> CloudRecord? {
        try session.run("SELECT change_tag, payload FROM records WHERE account = \(zone.account) AND view = \(zone.view) AND uuid = \(uuid)").rows
            .first.map { row in
                let (tag, payload) = try row.decode((String, Data).self)
                return CloudRecord(uuid: uuid, changeTag: tag, payload: payload)
            }
    }

    /// The connection while one call has it.
    private struct Session {
        let connection: PostgresConnection
        let logger: Logger
        let limit: TimeAmount

        @discardableResult
        func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
            try connection.query(query, logger: logger).wait(atMost: limit)
        }
    }

    /// Runs `body` with a connection of the pool, which no other call uses meanwhile: the first
    /// free one, else the next in turn once it is free; opened first if it is not open.
    private func withSession<Result>(_ body: (Session) throws -> Result) throws -> Result {
        let slot: Slot
        if let free = slots.first(where: { $0.lock.try() }) {
            slot = free
        } else {
            slot = slots[next.add(1, ordering: .relaxed).oldValue % slots.count]
            slot.lock.lock()
        }
        defer { slot.lock.unlock() }
        do {
            if slot.connection?.isClosed ?? true {
                do {
                    slot.connection = try servers.connect(logger: logger).wait(atMost: roundTripLimit) { late in
                        let _: EventLoopFuture<Void> = late.close()
                    }
                } catch {
                    throw ZoneStoreUnavailable("cannot connect: \(String(reflecting: error))")
                }
            }
            guard let open = slot.connection else { throw ZoneStoreUnavailable("no connection to PostgreSQL") }
            return try body(Session(connection: open, logger: logger, limit: roundTripLimit))
        } catch let error where Self.isUnavailable(error) {
            _ = try? slot.connection?.close().wait()
            slot.connection = nil
            logger.warning("PostgreSQL cannot be reached", metadata: ["error": "\(String(reflecting: error))"])
            throw ZoneStoreUnavailable("the account's store (PostgreSQL) cannot be reached now: try again")
        }
    }

    /// Whether `error` says the server could not be reached, went away or did not answer in time,
    /// rather than refusing a statement: a connection error, a round trip past the limit, or a
    /// server error of class 08 (connection exception) or 57 (operator intervention, such as a
    /// shutdown). The call may be tried again. Nothing was committed, except when the lost
    /// answer was COMMIT's: then the batch may have been applied, and a retry of it meets its own
    /// record as a conflict, whose server copy the device takes (the change tags see to that).
    static func isUnavailable(_ error: any Error) -> Bool {
        if error is ZoneStoreUnavailable || error is RoundTripTimedOut || error is ChannelError || error is IOError { return true }
        guard let error = error as? PSQLError else { return false }
        guard error.code == .server else { return true }
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || state.hasPrefix("57")
    }

    /// Runs `body` in a transaction on the connection; rolls back when it throws.
    private func transaction<Result>(_ body: (Session) throws -> Result) throws -> Result {
        try withSession { session in
            try session.run("BEGIN")
            do {
                let result = try body(session)
                try session.run("COMMIT")
                return result
            } catch {
                // A connection that failed is closed next, which ends its transaction; a
                // ROLLBACK on it would only wait out another round trip's limit.
                if !Self.isUnavailable(error) { _ = try? session.run("ROLLBACK") }
                throw error
            }
        }
    }
}

/// One connection of the pool, opened when first needed, and the lock that gives it to one call:
/// `connection` is read and written only while `lock` is held.
private final class Slot: @unchecked Sendable {
    let lock = NSLock()
    var connection: PostgresConnection?
}
