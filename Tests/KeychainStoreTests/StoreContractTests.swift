import Foundation
import KeychainItems
import KeychainStore
import KeychainTypes
import LabErrors
import Testing
import WorldTestSupport

/// The rules every ItemStore keeps, checked on the in-memory store and the SQLite store alike.
@Suite struct StoreContractTests {
    enum Kind: String, CaseIterable, Sendable {
        case memory
        case sqlite
    }

    static func withStore<T>(_ kind: Kind, _ body: (any ItemStore) async throws -> T) async throws -> T {
        switch kind {
        case .memory:
            return try await body(InMemoryItemStore())
        case .sqlite:
            return try await withTemporaryDirectory { folder in try await body(SQLiteItemStore(directory: folder)) }
        }
    }

    static func item(_ account: SecValue, group: String = "G", keychain: String = "dev", sync: Bool = false, data: String? = "secret") -> KeychainItem
    {
        KeychainItem(
            keychain: keychain,
            itemClass: .genericPassword,
            attributes: [
                "acct": account, "svce": .string("svc"), "agrp": .string(group), "sync": .integer(sync ? 1 : 0),
                "pdmn": .string("ak"), "labl": .string("label"), "cdat": .date(Date(timeIntervalSinceReferenceDate: 1.000_000_1)),
            ],
            data: data.map { Data($0.utf8) }
        )
    }

    /// The groups holding live items of the keychains asked about: removed items and other
    /// keychains do not count.
    @Test(arguments: Kind.allCases)
    func namesTheGroupsHoldingItems(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let gone = Self.item(.string("b"), group: "Gone")
            for item in [Self.item(.string("a")), Self.item(.string("a"), group: "H"), gone, Self.item(.string("c"), group: "X", keychain: "other")] {
                try await store.write { try $0.insert(item) }
            }
            try await store.write { try $0.remove(gone) }
            #expect(try await store.accessGroups(keychains: ["dev"]) == ["G", "H"])
            #expect(try await store.accessGroups(keychains: ["dev", "other"]) == ["G", "H", "X"])
            #expect(try await store.accessGroups(keychains: []) == [])
        }
    }

    @Test(arguments: Kind.allCases)
    func insertsFindsAndRefusesDuplicates(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let alice = Self.item(.string("alice"))
            try await store.write { try $0.insert(alice) }
            await #expect(throws: StoreError(.duplicate, "")) { try await store.write { try $0.insert(Self.item(.string("alice"))) } }
            try await store.write { try $0.insert(Self.item(.data(Data("alice".utf8)))) }
            try await store.write { try $0.insert(Self.item(.string("alice"), group: "H")) }
            try await store.write { try $0.insert(Self.item(.string("alice"), keychain: "other")) }

            let found = try await store.read {
                try $0.items(
                    matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword, attributes: ["acct": .string("alice")], loadData: true)
                )
            }
            #expect(found.count == 2)
            #expect(found.first == alice, "attributes, dates and data come back exactly")
            let typed = try await store.read {
                try $0.items(matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword, attributes: ["acct": .data(Data("alice".utf8))]))
            }
            #expect(typed.count == 1 && typed.first?.data == nil, "data is loaded only when asked")
            let grouped = try await store.read {
                try $0.items(matching: ItemFilter(keychains: ["dev", "other"], itemClass: .genericPassword, accessGroups: ["G"], limit: 2))
            }
            #expect(grouped.count == 2)
            let labelled = try await store.read {
                try $0.items(matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword, attributes: ["labl": .string("label")], limit: 1))
            }
            #expect(labelled.count == 1)
            for filter in [
                ItemFilter(keychains: ["dev"], itemClass: .genericPassword, attributes: ["acct": .string("alice")], loadData: true),
                ItemFilter(keychains: ["dev", "other"], itemClass: .genericPassword, accessGroups: ["G"], limit: 2),
            ] {
                let looked = try await store.lookup(filter)
                #expect(looked == (try await store.read { try $0.items(matching: filter) }), "a lookup finds what a read finds")
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func tombstonesGiveWayAndReplacementsKeepKeysUnique(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            var dead = Self.item(.string("alice"), data: nil)
            dead.isTombstone = true
            let tombstone = dead
            try await store.write { try $0.insert(tombstone) }
            let live = Self.item(.string("alice"))
            try await store.write { try $0.insert(live) }
            let all = try await store.read {
                try $0.items(matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword, includeTombstones: true))
            }
            #expect(all.map(\.uuid) == [live.uuid])

            let bob = Self.item(.string("bob"))
            try await store.write { try $0.insert(bob) }
            var clash = bob
            clash.attributes["acct"] = .string("alice")
            let clashing = clash
            await #expect(throws: StoreError(.duplicate, "")) { try await store.write { try $0.replace(bob, with: clashing) } }
            var rename = bob
            rename.attributes["acct"] = .string("carol")
            let renamed = rename
            try await store.write { try $0.replace(bob, with: renamed) }
            try await store.write { try $0.remove(live) }
            let left = try await store.read { try $0.items(matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword)) }
            #expect(left.map { $0.attributes["acct"] } == [.string("carol")])
        }
    }

    @Test(arguments: Kind.allCases)
    func aFailedTransactionKeepsNothing(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await store.write { writer in
                    try writer.insert(Self.item(.string("alice")))
                    throw Abort()
                }
            }
            let found = try await store.read { try $0.items(matching: ItemFilter(keychains: ["dev"], itemClass: .genericPassword)) }
            #expect(found.isEmpty)
        }
    }
}
