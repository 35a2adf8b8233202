public import CloudZones
public import Foundation
public import Logging
public import PostgresNIO
import Synchronization

/// cloudd's zones in PostgreSQL (postgres-nio), behind the same ``ZoneStorage`` protocol as
/// SQLite (docs/scale.md). Each batch is one transaction that first locks its zone's row, so the
/// tag check and the write it allows cannot interleave with another writer's, in this process or
/// in another cloudd on the same database, and each zone's log numbers follow each other with no
/// gap and no repeat. One connection, its calls taken in turn.
public final class PostgresZoneStorage: ZoneStorage {
    private let connection: Mutex<PostgresConnection>
    private let logger: Logger

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
        )
    ]

    /// Connects with `configuration` and brings the schema up to date.
    public init(configuration: PostgresConnection.Configuration, logger: Logger) throws {
        let connection = try PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(),
            configuration: configuration,
            id: 1,
            logger: logger
        ).wait()
        self.connection = Mutex(connection)
        self.logger = logger
        try migrate()
    }

    /// Closes the connection.
    public func close() {
        connection.withLock { connection in _ = try? connection.close().wait() }
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

    public func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> Result {
        try transaction { session in
            try session.run("INSERT INTO zones (account, view) VALUES (\(zone.account), \(zone.view)) ON CONFLICT DO NOTHING")
            let locked = try session.run("SELECT latest FROM zones WHERE account = \(zone.account) AND view = \(zone.view) FOR UPDATE")
            var sequence = try locked.rows.first?.decode(Int.self) ?? 0
            let (changes, result) = try decide { uuid in try Self.record(uuid, zone, session) }
            for change in changes {
                sequence += 1
                switch change {
                case .saved(let record):
                    try session.run(
                        """
                        INSERT INTO records (account, view, uuid, change_tag, payload)
                        VALUES (\(zone.account), \(zone.view), \(record.uuid), \(record.changeTag), \(record.payload))
                        ON CONFLICT (account, view, uuid) DO UPDATE SET change_tag = EXCLUDED.change_tag, payload = EXCLUDED.payload
                        """
                    )
                    try session.run(
                        """
                        INSERT INTO changes (account, view, sequence, uuid, change_tag, payload)
                        VALUES (\(zone.account), \(zone.view), \(sequence), \(record.uuid), \(record.changeTag), \(record.payload))
                        """
                    )
                case .deleted(let uuid):
                    try session.run("DELETE FROM records WHERE account = \(zone.account) AND view = \(zone.view) AND uuid = \(uuid)")
                    try session.run(
                        "INSERT INTO changes (account, view, sequence, uuid) VALUES (\(zone.account), \(zone.view), \(sequence), \(uuid))"
                    )
                }
            }
            try session.run("UPDATE zones SET latest = \(sequence) WHERE account = \(zone.account) AND view = \(zone.view)")
            return result
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

    public func changes(in zone: ZoneID, after sequence: Int, limit: Int) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int) {
        try withSession { session in
            let latest: PostgresQuery = "SELECT latest FROM zones WHERE account = \(zone.account) AND view = \(zone.view)"
            let last = try session.run(latest).rows.first?.decode(Int.self) ?? 0
            let page: PostgresQuery = """
                SELECT sequence, uuid, change_tag, payload FROM changes
                WHERE account = \(zone.account) AND view = \(zone.view) AND sequence > \(sequence) ORDER BY sequence LIMIT \(limit)
                """
            let changes = try session.run(page).rows.map { row -> (sequence: Int, change: RecordChange) in
                let (number, uuid, tag, payload) = try row.decode((Int, UUID, String?, Data?).self)
                guard let tag, let payload else { return (number, .deleted(uuid)) }
                return (number, .saved(CloudRecord(uuid: uuid, changeTag: tag, payload: payload)))
            }
            return (changes, last)
        }
    }

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

        @discardableResult
        func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
            try connection.query(query, logger: logger).wait()
        }
    }

    /// Runs `body` with the connection, which no other call uses meanwhile.
    private func withSession<Result>(_ body: (Session) throws -> Result) throws -> Result {
        try connection.withLock { connection in try body(Session(connection: connection, logger: logger)) }
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
                _ = try? session.run("ROLLBACK")
                throw error
            }
        }
    }
}
