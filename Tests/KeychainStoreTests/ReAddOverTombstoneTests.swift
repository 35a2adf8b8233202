import AppIdentity
import Foundation
import KeychainItems
import KeychainStore
import KeychainTypes
import Testing
import WorldTestSupport

/// The SQLite store finds a deleted synced item's tombstone through its sealed lookup columns, so
/// a re-add takes the tombstone's UUID there too (`SecDbItem.c`, `SecDbItemInsert`), across a reopen.
@Suite struct ReAddOverTombstoneTests {
    static let keychain = "00008030-001A2B3C4D5E802E"

    static func client() -> ClientContext {
        ClientContext(
            caller: .app(try! AppID("ABCDE12345.com.example.AppOne")),
            entitledGroups: [try! AccessGroup("ABCDE12345.com.example.AppOne")],
            device: DeviceState(platform: .ios, osVersion: OSVersion(17, 4)),
            deviceKeychain: keychain
        )
    }

    static func item(_ secret: String) -> [String: SecValue] {
        [
            "class": .string("genp"), "acct": .string("alice"), "svce": .string("example.com"), "sync": .bool(true),
            "v_Data": .data(Data(secret.utf8)), "r_PersistentRef": .bool(true),
        ]
    }

    @Test func aReAddKeepsTheTombstonesUUID() async throws {
        try await withTemporaryDirectory { folder in
            let engine = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            let first = await engine.add(Self.item("first"), client: Self.client())
            let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("alice"), "sync": .bool(true)]
            #expect(await engine.delete(query, client: Self.client()).status == .success)
            let second = await engine.add(Self.item("second"), client: Self.client())
            #expect(first.status == .success && second.status == .success)
            #expect(second.result == first.result, "the same persistent reference: the same UUID")

            let changes = try await engine.syncFeed(keychain: Self.keychain, after: 0, limit: 10)
            #expect(changes.count == 3 && Set(changes.map(\.item.uuid)).count == 1, "add, delete and add of one item")
            #expect(changes.allSatisfy { !$0.deleted }, "each reads the item as it is now: live")

            let reopened = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            let reference = try #require(first.result)
            let read = await reopened.copyMatching(["v_PersistentRef": reference, "r_Data": .bool(true)], client: Self.client())
            #expect(read.result == .data(Data("second".utf8)))
        }
    }
}
