import Foundation
import KeychainItems
import KeychainStore
import KeychainTypes
import Testing

/// `tombstone(withKeyOf:)`, on the in-memory store and the SQLite store alike: the tombstone with
/// the item's keychain, class and primary key, never a live item, another keychain's or another key's.
@Suite struct TombstoneLookupTests {
    typealias C = StoreContractTests

    @Test(arguments: C.Kind.allCases)
    func findsOnlyTheTombstoneWithTheKey(_ kind: C.Kind) async throws {
        try await C.withStore(kind) { store in
            var dead = C.item(.string("alice"), sync: true, data: nil)
            dead.isTombstone = true
            let tombstone = dead
            var other = tombstone
            other.keychain = "other"
            let elsewhere = other
            let live = C.item(.string("bob"), sync: true)
            try await store.write { writer in
                for item in [tombstone, elsewhere, live] { try writer.insert(item) }
            }
            let found = try await store.read { reader in
                try (
                    alice: reader.tombstone(withKeyOf: C.item(.string("alice"), sync: true)),
                    bob: reader.tombstone(withKeyOf: C.item(.string("bob"), sync: true)),
                    localAlice: reader.tombstone(withKeyOf: C.item(.string("alice"))),
                    carol: reader.tombstone(withKeyOf: C.item(.string("carol"), sync: true))
                )
            }
            #expect(found.alice?.uuid == tombstone.uuid && found.alice?.keychain == "dev" && found.alice?.isTombstone == true)
            #expect(found.bob == nil, "a live item is no tombstone")
            #expect(found.localAlice == nil, "sync is part of the primary key")
            #expect(found.carol == nil)
        }
    }
}
