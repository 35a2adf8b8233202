public import Foundation
import GRDB
public import KeychainItems
import KeychainTypes
import LabErrors

/// The daemon's item store: one SQLite database (WAL, `synchronous = FULL`) holding every device's
/// keychain, with attributes and data sealed by AES-GCM under per-keychain keys kept outside it
/// (``KeyVault``). Only the class, access group, sync and tombstone flags, and keyed digests of the
/// primary key and of `acct`, `svce` and `srvr` are stored in the clear, so lookups stay indexed.
public final class SQLiteItemStore: ItemStore {
    /// Attributes with a lookup column: the ones queries name most.
    static let indexed = ["acct", "svce", "srvr"]

    let pool: DatabasePool
    let vault: KeyVault
    let writer: GroupCommit
    let readers: LookupConnections

    /// Opens (or creates) the store in `directory`: `keychain.sqlite` and `keys/`.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        vault = try KeyVault(directory: directory.appending(path: "keys"))
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let path = directory.appending(path: "keychain.sqlite").path
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
        try pool.write { db in try db.execute(sql: "PRAGMA optimize") }
        writer = GroupCommit(pool: pool)
        readers = LookupConnections(path: path)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("items-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE items (
                        id INTEGER PRIMARY KEY,
                        keychain TEXT NOT NULL,
                        class TEXT NOT NULL,
                        uuid BLOB NOT NULL UNIQUE,
                        agrp TEXT NOT NULL,
                        sync INTEGER NOT NULL,
                        tomb INTEGER NOT NULL,
                        pk BLOB NOT NULL,
                        acct BLOB,
                        svce BLOB,
                        srvr BLOB,
                        attributes BLOB NOT NULL,
                        data BLOB
                    );
                    CREATE UNIQUE INDEX items_primary_key ON items(keychain, class, pk);
                    CREATE INDEX items_groups ON items(keychain, class, agrp, sync, tomb);
                    CREATE INDEX items_acct ON items(keychain, class, acct);
                    CREATE INDEX items_svce ON items(keychain, class, svce);
                    CREATE INDEX items_srvr ON items(keychain, class, srvr);
                    """
            )
        }
        migrator.registerMigration("lookup-indexes-v2") { db in
            // Without statistics SQLite may pick a service index that every item shares and visit
            // them all; the composite indexes make account-and-service lookups one seek, and the
            // trailing id keeps results in insertion order without a sort.
            try db.execute(
                sql: """
                    DROP INDEX items_acct;
                    DROP INDEX items_svce;
                    DROP INDEX items_srvr;
                    CREATE INDEX items_acct ON items(keychain, class, acct, id);
                    CREATE INDEX items_svce_acct ON items(keychain, class, svce, acct, id);
                    CREATE INDEX items_srvr_acct ON items(keychain, class, srvr, acct, id);
                    """
            )
        }
        migrator.registerMigration("keychain-numbers-v3") { db in
            // Indexes led with the keychain's name; they now lead with its number (KeychainNumber),
            // which halves them. Existing rows keep their ids, so insertion order is kept.
            try db.execute(sql: "CREATE TABLE keychains (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            for name in try String.fetchAll(db, sql: "SELECT DISTINCT keychain FROM items") {
                try db.execute(sql: "INSERT INTO keychains (id, name) VALUES (?, ?)", arguments: [KeychainNumber.of(name), name])
            }
            try db.execute(
                sql: """
                    CREATE TABLE items_v3 (
                        id INTEGER PRIMARY KEY,
                        kc INTEGER NOT NULL,
                        class TEXT NOT NULL,
                        uuid BLOB NOT NULL UNIQUE,
                        agrp TEXT NOT NULL,
                        sync INTEGER NOT NULL,
                        tomb INTEGER NOT NULL,
                        pk BLOB NOT NULL,
                        acct BLOB,
                        svce BLOB,
                        srvr BLOB,
                        attributes BLOB NOT NULL,
                        data BLOB
                    );
                    INSERT INTO items_v3
                        SELECT items.id, keychains.id, class, uuid, agrp, sync, tomb, pk, acct, svce, srvr, attributes, data
                        FROM items JOIN keychains ON keychains.name = items.keychain;
                    DROP TABLE items;
                    ALTER TABLE items_v3 RENAME TO items;
                    CREATE UNIQUE INDEX items_primary_key ON items(kc, class, pk);
                    CREATE INDEX items_groups ON items(kc, class, agrp, sync, tomb);
                    CREATE INDEX items_acct ON items(kc, class, acct, id);
                    CREATE INDEX items_svce_acct ON items(kc, class, svce, acct, id);
                    CREATE INDEX items_srvr_acct ON items(kc, class, srvr, acct, id);
                    """
            )
        }
        migrator.registerMigration("write-light-indexes-v4") { db in
            // Each add writes a leaf of every index, and at 100,000 items a random leaf is a page
            // of its own in the commit. An index on the service alone is filled in insertion order
            // (items of one service share its digest), so only the account's index stays random;
            // the server's index skips the many items without a server. The rowid ends every index
            // of its own, so results still come in insertion order.
            try db.execute(
                sql: """
                    DROP INDEX items_acct;
                    DROP INDEX items_svce_acct;
                    DROP INDEX items_srvr_acct;
                    CREATE INDEX items_acct_svce ON items(kc, class, acct, svce);
                    CREATE INDEX items_svce ON items(kc, class, svce) WHERE svce IS NOT NULL;
                    CREATE INDEX items_srvr_acct ON items(kc, class, srvr, acct) WHERE srvr IS NOT NULL;
                    """
            )
        }
        migrator.registerMigration("sync-changes-v5") { db in
            // CKKS's outgoing queue, as the keychain keeps it: a row per change of a synchronizable
            // item, written in the change's transaction, until the device has taken it. The item's
            // content is read from the item itself, so nothing secret is stored twice.
            try db.execute(
                sql: """
                    CREATE TABLE sync_changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        kc INTEGER NOT NULL,
                        class TEXT NOT NULL,
                        uuid BLOB NOT NULL
                    );
                    CREATE INDEX sync_changes_kc ON sync_changes(kc, seq);
                    """
            )
        }
        migrator.registerMigration("uuid-per-keychain-v6") { db in
            // Each device keeps its own copy of a synced item, under the item's UUID: a UUID is
            // unique within a keychain, no longer across the store.
            try db.execute(
                sql: """
                    CREATE TABLE items_v6 (
                        id INTEGER PRIMARY KEY,
                        kc INTEGER NOT NULL,
                        class TEXT NOT NULL,
                        uuid BLOB NOT NULL,
                        agrp TEXT NOT NULL,
                        sync INTEGER NOT NULL,
                        tomb INTEGER NOT NULL,
                        pk BLOB NOT NULL,
                        acct BLOB,
                        svce BLOB,
                        srvr BLOB,
                        attributes BLOB NOT NULL,
                        data BLOB
                    );
                    INSERT INTO items_v6 SELECT id, kc, class, uuid, agrp, sync, tomb, pk, acct, svce, srvr, attributes, data FROM items;
                    DROP TABLE items;
                    ALTER TABLE items_v6 RENAME TO items;
                    CREATE UNIQUE INDEX items_uuid ON items(kc, uuid);
                    CREATE UNIQUE INDEX items_primary_key ON items(kc, class, pk);
                    CREATE INDEX items_groups ON items(kc, class, agrp, sync, tomb);
                    CREATE INDEX items_acct_svce ON items(kc, class, acct, svce);
                    CREATE INDEX items_svce ON items(kc, class, svce) WHERE svce IS NOT NULL;
                    CREATE INDEX items_srvr_acct ON items(kc, class, srvr, acct) WHERE srvr IS NOT NULL;
                    """
            )
        }
        return migrator
    }

    /// Reads in one transaction (one snapshot), on the calling thread.
    public func read<T: Sendable>(_ body: @Sendable (any ItemReading) throws -> T) async throws -> T {
        let vault = self.vault
        return try readers.with { statements in
            try statements.execute("BEGIN")
            defer { _ = try? statements.execute("COMMIT") }
            return try body(Session(statements: statements, vault: vault))
        }
    }

    /// One statement is its own snapshot, so no transaction is opened for it; it runs on the
    /// calling thread, which costs less than the two thread hops of handing it over.
    public func lookup(_ filter: ItemFilter) async throws -> [KeychainItem] {
        let vault = self.vault
        return try readers.with { statements in
            try Session(statements: statements, vault: vault).items(matching: filter)
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ItemWriting) throws -> T) async throws -> T {
        let vault = self.vault
        return try await writer.write { db in
            guard let connection = db.sqliteConnection else { throw StoreError(.io, "the keychain database is closed") }
            // The session's statements end with the body, inside GRDB's transaction.
            let statements = SQLiteStatements(borrowing: connection)
            defer { statements.finalize() }
            return try body(Session(statements: statements, vault: vault))
        }
    }

    public func eraseAll() async throws -> Int {
        try await pool.write { db in
            let live = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE tomb = 0") ?? 0
            try db.execute(sql: "DELETE FROM items")
            try db.execute(sql: "DELETE FROM sync_changes")
            return live
        }
    }

    public func forgetSyncChanges(keychain: String, through sequence: Int64) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM sync_changes WHERE kc = ? AND seq <= ?",
                arguments: [KeychainNumber.of(keychain), sequence]
            )
        }
    }

    /// The access groups holding live items in `keychains`, from the index alone.
    public func accessGroups(keychains: [String]) async throws -> Set<String> {
        guard !keychains.isEmpty else { return [] }
        return try await pool.read { db in
            let marks = Array(repeating: "?", count: keychains.count).joined(separator: ", ")
            let groups = try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT agrp FROM items JOIN keychains ON keychains.id = items.kc
                    WHERE keychains.name IN (\(marks)) AND tomb = 0
                    """,
                arguments: StatementArguments(keychains)
            )
            return Set(groups)
        }
    }

    /// How many live items each keychain holds.
    public func counts() async throws -> [String: Int] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT keychains.name AS keychain, COUNT(*) AS n FROM items JOIN keychains ON keychains.id = items.kc
                    WHERE tomb = 0 GROUP BY kc
                    """
            )
            var counts: [String: Int] = [:]
            for row in rows { counts[row["keychain"]] = row["n"] }
            return counts
        }
    }
}
