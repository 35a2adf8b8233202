import Foundation
import GRDB
import KeychainItems
import KeychainStore
import KeychainTypes
import Testing
import WorldTestSupport

/// A database written by an earlier keychaind opens, migrates and keeps its items.
@Suite struct StoreMigrationTests {
    /// Turns a current database back into the `keychain-numbers-v3` schema.
    static func downgradeToV3(_ path: String) throws {
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(
                sql: """
                    DROP INDEX items_acct_svce;
                    DROP INDEX items_svce;
                    DROP INDEX items_srvr_acct;
                    CREATE INDEX items_acct ON items(kc, class, acct, id);
                    CREATE INDEX items_svce_acct ON items(kc, class, svce, acct, id);
                    CREATE INDEX items_srvr_acct ON items(kc, class, srvr, acct, id);
                    DELETE FROM grdb_migrations WHERE identifier = 'write-light-indexes-v4';
                    """
            )
        }
        try database.close()
    }

    static func indexes(_ path: String) throws -> Set<String> {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        return Set(
            try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'items_%'") }
        )
    }

    @Test func aVersionThreeDatabaseGetsTheWriteLightIndexes() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appending(path: "keychain.sqlite").path
            do {
                let store = try SQLiteItemStore(directory: folder)
                for account in ["alice", "bob"] {
                    try await store.write { try $0.insert(LookupConnectionTests.item(account)) }
                }
                try await store.write {
                    try $0.insert(
                        KeychainItem(
                            keychain: "dev",
                            itemClass: .internetPassword,
                            attributes: ["acct": .string("carol"), "srvr": .string("example.com"), "agrp": .string("G"), "sync": .integer(0)],
                            data: nil
                        )
                    )
                }
            }
            try Self.downgradeToV3(path)
            #expect(try Self.indexes(path).contains("items_svce_acct"))

            let reopened = try SQLiteItemStore(directory: folder)
            let indexes = try Self.indexes(path)
            #expect(indexes.isSuperset(of: ["items_acct_svce", "items_svce", "items_srvr_acct", "items_primary_key", "items_groups"]))
            #expect(!indexes.contains("items_svce_acct") && !indexes.contains("items_acct"))
            #expect(try await reopened.lookup(LookupConnectionTests.filter("bob")).map { $0.attributes["acct"] } == [.string("bob")])
            #expect(try await reopened.lookup(LookupConnectionTests.filter()).count == 2)
            let byServer = ItemFilter(keychains: ["dev"], itemClass: .internetPassword, attributes: ["srvr": .string("example.com")])
            #expect(try await reopened.lookup(byServer).map { $0.attributes["acct"] } == [.string("carol")])
        }
    }
}
