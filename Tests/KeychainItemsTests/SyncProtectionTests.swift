import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// A synchronizable item may not have a ThisDeviceOnly protection class (`SecItem.h` on
/// `kSecAttrSynchronizable`; issue 46): SecItemAdd and SecItemUpdate say errSecParam (-50), with a
/// reason naming the two parameters, and nothing is stored or queued for the cloud.
@Suite struct SyncProtectionTests {
    typealias F = Fixtures
    static let refusal = "kSecAttrSynchronizable with a ThisDeviceOnly accessibility"

    static func feed(_ engine: KeychainEngine) async throws -> [SyncFeedChange] {
        try await engine.syncFeed(keychain: "device-1", after: 0, limit: 100)
    }

    static func isRefusal(_ result: SecItemResult) -> Bool {
        result.status == .param && result.rule == .queryForm && result.reason?.contains(refusal) == true
    }

    @Test(arguments: [
        ("ak", SecStatus.success), ("ck", .success), ("dk", .success),
        ("aku", .param), ("cku", .param), ("dku", .param), ("akpu", .param),
    ])
    func aSynchronizableAddNeedsAClassThatMoves(_ protection: String, _ expected: SecStatus) async throws {
        let engine = F.engine()
        let added = await engine.add(F.password(["sync": .bool(true), "pdmn": .string(protection)]), client: F.one)
        #expect(added.status == expected, "\(protection): \(added.reason ?? "")")
        if expected == .param {
            #expect(Self.isRefusal(added), "\(added.reason ?? "")")
            let name = try #require(Accessibility(rawValue: protection)).constantName
            #expect(added.reason?.contains(name) == true, "the reason names the class: \(added.reason ?? "")")
            #expect(await engine.copyMatching(F.query(["sync": .string("syna")]), client: F.one).status == .itemNotFound, "nothing stored")
            #expect(try await Self.feed(engine).isEmpty, "nothing queued for the cloud")
        }
    }

    @Test func theSameClassesStayAllowedForALocalItem() async {
        let engine = F.engine()
        for protection in ["aku", "cku", "dku", "akpu"] {
            let added = await engine.add(F.password(protection, ["pdmn": .string(protection)]), client: F.one)
            #expect(added.status == .success, "\(protection) without kSecAttrSynchronizable")
        }
    }

    @Test func anAccessControlsProtectionCountsToo() async {
        let engine = F.engine()
        let control: SecValue = .dictionary(["prot": .string("cku")])
        #expect(Self.isRefusal(await engine.add(F.password(["sync": .bool(true), "accc": control]), client: F.one)))
    }

    @Test func anUpdateThatMakesASyncedItemThisDeviceOnlyIsRefused() async {
        let engine = F.engine()
        let synced = F.query(["sync": .bool(true)])
        #expect(await engine.add(F.password(["sync": .bool(true), "pdmn": .string("ck")]), client: F.one).status == .success)
        #expect(Self.isRefusal(await engine.update(synced, attributesToUpdate: ["pdmn": .string("cku")], client: F.one)))
        let control: SecValue = .dictionary(["prot": .string("aku")])
        #expect(Self.isRefusal(await engine.update(synced, attributesToUpdate: ["accc": control], client: F.one)))
        let read = await engine.copyMatching(F.query(["sync": .bool(true), "r_Attributes": .bool(true)]), client: F.one)
        #expect(read.result?.dictionaryValue?["pdmn"] == .string("ck"), "nothing was updated")
        #expect(await engine.update(synced, attributesToUpdate: ["pdmn": .string("ak")], client: F.one).status == .success)
        #expect(await engine.update(synced, attributesToUpdate: ["v_Data": .data(Data("v2".utf8))], client: F.one).status == .success)
    }

    @Test func anUpdateThatMakesAThisDeviceOnlyItemSynchronizableIsRefused() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password(["pdmn": .string("cku")]), client: F.one).status == .success)
        #expect(Self.isRefusal(await engine.update(F.query(), attributesToUpdate: ["sync": .bool(true)], client: F.one)))
        #expect(await engine.copyMatching(F.query(), client: F.one).status == .success, "still a local item")
        #expect(await engine.copyMatching(F.query(["sync": .bool(true)]), client: F.one).status == .itemNotFound)
        #expect(try await Self.feed(engine).isEmpty)
    }

    @Test func anUpdateNamingBothIsRefusedBeforeAnythingIsSearched() async {
        let engine = F.engine()
        let both: [String: SecValue] = ["sync": .bool(true), "pdmn": .string("aku")]
        let updated = await engine.update(F.query(["acct": .string("nobody")]), attributesToUpdate: both, client: F.one)
        #expect(Self.isRefusal(updated), "-50, not errSecItemNotFound: \(updated.status)")
    }
}
