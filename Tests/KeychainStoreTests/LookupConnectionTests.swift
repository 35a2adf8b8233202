import AppIdentity
import Foundation
import GRDB
import KeychainItems
import KeychainStore
import KeychainTypes
import Testing
import WorldTestSupport

/// Lookups run on read-only connections of their own, beside GRDB's writer: they must see every
/// committed write at once, and survive rows they cannot open.
@Suite struct LookupConnectionTests {
    static func item(_ account: String, keychain: String = "dev") -> KeychainItem {
        KeychainItem(
            keychain: keychain,
            itemClass: .genericPassword,
            attributes: ["acct": .string(account), "svce": .string("svc"), "agrp": .string("G"), "sync": .integer(0), "pdmn": .string("ak")],
            data: Data("secret-\(account)".utf8)
        )
    }

    static func filter(_ account: String? = nil) -> ItemFilter {
        ItemFilter(
            keychains: ["dev"],
            itemClass: .genericPassword,
            attributes: account.map { ["acct": .string($0), "svce": .string("svc")] } ?? [:],
            loadData: true
        )
    }

    @Test func aLookupSeesEveryWriteThatReturned() async throws {
        try await withTemporaryDirectory { folder in
            let store = try SQLiteItemStore(directory: folder)
            let misses = try await withThrowingTaskGroup(of: Int.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        var misses = 0
                        for index in 0..<50 {
                            let account = "user-\(writer)-\(index)"
                            try await store.write { try $0.insert(Self.item(account)) }
                            let found = try await store.lookup(Self.filter(account))
                            if found.count != 1 || found.first?.data != Data("secret-\(account)".utf8) { misses += 1 }
                        }
                        return misses
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(misses == 0)
            #expect(try await store.lookup(Self.filter()).count == 200)
            let inOneRead = try await store.read { try $0.items(matching: Self.filter()) }
            #expect(inOneRead.map(\.uuid) == (try await store.lookup(Self.filter())).map(\.uuid), "oldest first, both ways")
        }
    }

    @Test func aRowWhoseSealedBytesWereMovedIsSkipped() async throws {
        try await withTemporaryDirectory { folder in
            let store = try SQLiteItemStore(directory: folder)
            let alice = Self.item("alice")
            try await store.write { try $0.insert(alice) }
            try await store.write { try $0.insert(Self.item("bob")) }
            // Someone with the database but not the keys copies alice's sealed attributes onto bob's row.
            let database = try DatabaseQueue(path: folder.appending(path: "keychain.sqlite").path)
            try await database.write { db in
                try db.execute(
                    sql: """
                        UPDATE items SET attributes = (SELECT attributes FROM items ORDER BY id LIMIT 1)
                        WHERE id = (SELECT MAX(id) FROM items)
                        """
                )
                #expect(db.changesCount == 1)
            }
            try database.close()
            #expect(try await store.lookup(Self.filter()) == [alice], "the moved ciphertext does not open under bob's row")
            #expect(try await store.lookup(Self.filter("bob")).isEmpty)
            try await store.write { try $0.insert(Self.item("carol")) }
            #expect(try await store.lookup(Self.filter()).map { $0.attributes["acct"] } == [.string("alice"), .string("carol")])
        }
    }
}

/// A keychain database that is no longer a database: calls fail with securityd's status for it
/// (KeychainAPITests testCorruptionHandler: errSecNotAvailable), and nothing crashes.
@Suite struct DamagedDatabaseTests {
    @Test func aDamagedDatabaseAnswersNotAvailable() async throws {
        try await withTemporaryDirectory { folder in
            let store = try SQLiteItemStore(directory: folder)
            let engine = KeychainEngine(store: store)
            let client = SealedStorageTests.client()
            #expect(await SealedStorageTests.add(engine).status == .success)
            // Garbage over the database and its write-ahead log: what a connection opened from
            // now on reads is no database.
            for name in ["keychain.sqlite", "keychain.sqlite-wal"] {
                let file = folder.appending(path: name)
                let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                let handle = try FileHandle(forWritingTo: file)
                try handle.write(contentsOf: Data(repeating: 0x8a, count: max(size, 4096)))
                try handle.close()
            }
            let found = await engine.copyMatching(["class": .string("genp"), "r_Attributes": .bool(true)], client: client)
            #expect(found.status == .notAvailable, "\(found)")
            #expect(found.reason?.contains(SealedStorageTests.account) != true)
        }
    }
}
