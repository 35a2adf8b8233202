public import CloudZones
public import Foundation
import GRDB
import SQLiteSupport

/// cloudd's zones in SQLite (GRDB, WAL): each zone's records and its change log, one write
/// transaction per batch, so a tag check and the write it allows cannot interleave with another.
public final class SQLiteZoneStorage: ZoneStorage {
    private let database: DatabaseQueue

    /// Opens (or creates) `file` in `directory`.
    public init(directory: URL, file: String = "zones.sqlite") throws {
        database = try DatabaseQueue.wal(file, in: directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("zones-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE records (
                        account TEXT NOT NULL, view TEXT NOT NULL, uuid TEXT NOT NULL, changeTag TEXT NOT NULL, payload BLOB NOT NULL,
                        PRIMARY KEY (account, view, uuid)
                    );
                    CREATE TABLE changes (
                        account TEXT NOT NULL, view TEXT NOT NULL, sequence INTEGER NOT NULL, uuid TEXT NOT NULL,
                        changeTag TEXT, payload BLOB,
                        PRIMARY KEY (account, view, sequence)
                    );
                    """
            )
        }
        // The number each zone's last erase took, which its log's numbers go on from.
        migrator.registerMigration("zones-v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE erasures (
                        account TEXT NOT NULL, view TEXT NOT NULL, sequence INTEGER NOT NULL, PRIMARY KEY (account, view)
                    );
                    """
            )
        }
        try migrator.migrate(database)
    }

    public func record(_ uuid: UUID, in zone: ZoneID) throws -> CloudRecord? {
        try database.read { db in try Self.record(db, uuid, zone) }
    }

    @discardableResult
    public func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> (result: Result, latest: Int) {
        try database.write { db in
            let (changes, result) = try decide { uuid in try Self.record(db, uuid, zone) }
            var sequence = try Self.latest(db, zone)
            for change in changes {
                sequence += 1
                switch change {
                case .saved(let record):
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO records (account, view, uuid, changeTag, payload) VALUES (?, ?, ?, ?, ?)",
                        arguments: [zone.account, zone.view, record.uuid.uuidString, record.changeTag, record.payload]
                    )
                    try db.execute(
                        sql: "INSERT INTO changes (account, view, sequence, uuid, changeTag, payload) VALUES (?, ?, ?, ?, ?, ?)",
                        arguments: [zone.account, zone.view, sequence, record.uuid.uuidString, record.changeTag, record.payload]
                    )
                case .deleted(let uuid):
                    try db.execute(
                        sql: "DELETE FROM records WHERE account = ? AND view = ? AND uuid = ?",
                        arguments: [zone.account, zone.view, uuid.uuidString]
                    )
                    try db.execute(
                        sql: "INSERT INTO changes (account, view, sequence, uuid) VALUES (?, ?, ?, ?)",
                        arguments: [zone.account, zone.view, sequence, uuid.uuidString]
                    )
                }
            }
            return (result, sequence)
        }
    }

    public func records(in zone: ZoneID) throws -> [CloudRecord] {
        try database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT uuid, changeTag, payload FROM records WHERE account = ? AND view = ? ORDER BY uuid",
                arguments: [zone.account, zone.view]
            ).compactMap { row in
                UUID(uuidString: row["uuid"]).map { CloudRecord(uuid: $0, changeTag: row["changeTag"], payload: row["payload"]) }
            }
        }
    }

    public func changes(
        in zone: ZoneID,
        after sequence: Int,
        limit: Int
    ) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int, erased: Int) {
        try database.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT sequence, uuid, changeTag, payload FROM changes
                    WHERE account = ? AND view = ? AND sequence > ? ORDER BY sequence LIMIT ?
                    """,
                arguments: [zone.account, zone.view, sequence, limit]
            )
            let latest = try Self.latest(db, zone)
            let changes: [(sequence: Int, change: RecordChange)] = rows.compactMap { row in
                guard let uuid = UUID(uuidString: row["uuid"]) else { return nil }
                let tag: String? = row["changeTag"]
                let payload: Data? = row["payload"]
                guard let tag, let payload else { return (row["sequence"], .deleted(uuid)) }
                return (row["sequence"], .saved(CloudRecord(uuid: uuid, changeTag: tag, payload: payload)))
            }
            return (changes, latest, try Self.erased(db, zone))
        }
    }

    public func latest(in zone: ZoneID) throws -> Int {
        try database.read { db in try Self.latest(db, zone) }
    }

    @discardableResult
    public func erase(_ zone: ZoneID) throws -> ZoneErasure {
        try database.write { db in
            let latest = try Self.latest(db, zone)
            let arguments: StatementArguments = [zone.account, zone.view]
            try db.execute(sql: "DELETE FROM changes WHERE account = ? AND view = ?", arguments: arguments)
            let changes = db.changesCount
            // No change since the last erase, so no record either: nothing moves.
            guard changes > 0 else { return ZoneErasure(records: 0, changes: 0, latest: latest) }
            try db.execute(sql: "DELETE FROM records WHERE account = ? AND view = ?", arguments: arguments)
            let records = db.changesCount
            try db.execute(
                sql: "INSERT OR REPLACE INTO erasures (account, view, sequence) VALUES (?, ?, ?)",
                arguments: [zone.account, zone.view, latest + 1]
            )
            return ZoneErasure(records: records, changes: changes, latest: latest + 1)
        }
    }

    /// One connection (a `DatabaseQueue`): its calls take turns.
    public var concurrentCalls: Int { 1 }

    public func close() {
        try? database.close()
    }

    /// The zone's last change: its log's, else its last erase's (the log then holds nothing).
    private static func latest(_ db: Database, _ zone: ZoneID) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT MAX(number) FROM (
                    SELECT MAX(sequence) AS number FROM changes WHERE account = ? AND view = ?
                    UNION ALL SELECT sequence FROM erasures WHERE account = ? AND view = ?
                )
                """,
            arguments: [zone.account, zone.view, zone.account, zone.view]
        ) ?? 0
    }

    private static func erased(_ db: Database, _ zone: ZoneID) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT sequence FROM erasures WHERE account = ? AND view = ?", arguments: [zone.account, zone.view]) ?? 0
    }

    private static func record(_ db: Database, _ uuid: UUID, _ zone: ZoneID) throws -> CloudRecord? {
        try Row.fetchOne(
            db,
            sql: "SELECT changeTag, payload FROM records WHERE account = ? AND view = ? AND uuid = ?",
            arguments: [zone.account, zone.view, uuid.uuidString]
        ).map { row in CloudRecord(uuid: uuid, changeTag: row["changeTag"], payload: row["payload"]) }
    }
}
