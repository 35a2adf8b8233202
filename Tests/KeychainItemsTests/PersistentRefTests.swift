import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// si-43-persistent: a persistent reference names one item for as long as it lives, whatever
/// changes, and finds nothing once it is deleted.
@Suite struct PersistentRefTests {
    typealias F = Fixtures

    static let site: [String: SecValue] = [
        "class": .string("inet"), "srvr": .string("zuigt.nl"), "acct": .string("frtnbf"), "port": .integer(80), "ptcl": .string("http"),
        "atyp": .string("dflt"), "v_Data": .data(Data("test".utf8)), "r_PersistentRef": .bool(true),
    ]

    static func reference(_ result: SecItemResult) -> SecValue? {
        guard result.status == .success, case .data? = result.result else { return nil }
        return result.result
    }

    @Test func aReferenceOutlivesAChangeOfPrimaryKey() async throws {
        let engine = F.engine()
        let first = try #require(Self.reference(await engine.add(Self.site, client: F.one)))
        var other = Self.site
        other["acct"] = .string("johndoe")
        let second = try #require(Self.reference(await engine.add(other, client: F.one)))

        let moved = await engine.update(["v_PersistentRef": first], attributesToUpdate: ["srvr": .string("zuigt.com")], client: F.one)
        #expect(moved.status == .success)
        let found = await engine.copyMatching(["v_PersistentRef": first, "r_Attributes": .bool(true)], client: F.one)
        #expect(found.status == .success)
        #expect(found.result?.dictionaryValue?["srvr"] == .string("zuigt.com"))
        let untouched = await engine.copyMatching(["v_PersistentRef": second, "r_Attributes": .bool(true)], client: F.one)
        #expect(untouched.result?.dictionaryValue?["srvr"] == .string("zuigt.nl"))

        #expect(await engine.delete(["v_PersistentRef": first], client: F.one).status == .success)
        #expect(await engine.copyMatching(["v_PersistentRef": first], client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(["v_PersistentRef": second], client: F.one).status == .success)
        #expect(await engine.delete(["v_PersistentRef": second], client: F.one).status == .success)
    }

    @Test func aSynchronizableItemKeepsItsReferenceAndLeavesATombstone() async throws {
        let engine = F.engine()
        var synced = Self.site
        synced["sync"] = .bool(true)
        let reference = try #require(Self.reference(await engine.add(synced, client: F.one)))
        let moved = await engine.update(["v_PersistentRef": reference], attributesToUpdate: ["srvr": .string("zuigt.com")], client: F.one)
        #expect(moved.status == .success)
        let found = await engine.copyMatching(["v_PersistentRef": reference, "r_Attributes": .bool(true)], client: F.one)
        #expect(found.result?.dictionaryValue?["srvr"] == .string("zuigt.com"))
        let everything = await engine.copyMatching(
            ["class": .string("inet"), "sync": .string("syna"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)],
            client: F.one
        )
        guard case .array(let items)? = everything.result else {
            Issue.record("no array: \(everything)")
            return
        }
        #expect(items.count == 1, "the tombstone of zuigt.nl stays hidden")
    }
}
