import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// `kSecAttrSHA1` (`sha1`) comes with the data and only with it (spec keychain.md §2.4).
@Suite struct ResultDigestTests {
    typealias F = Fixtures

    static func digest(_ engine: KeychainEngine, data: Bool) async -> SecValue? {
        var query = F.query(["acct": .string("alice"), "r_Attributes": .bool(true)])
        if data { query["r_Data"] = .bool(true) }
        return await engine.copyMatching(query, client: F.one).result?.dictionaryValue?["sha1"]
    }

    @Test func theDigestComesWithTheDataAndFollowsIt() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice"), client: F.one).status == .success)
        #expect(await Self.digest(engine, data: false) == nil, "not with attributes alone")
        let first = try #require(await Self.digest(engine, data: true))
        guard case .data(let bytes) = first else {
            Issue.record("sha1 is not data: \(first)")
            return
        }
        #expect(bytes.count == 20)
        #expect(await Self.digest(engine, data: true) == first, "the same item gives the same digest")
        let changed = await engine.update(F.query(["acct": .string("alice")]), attributesToUpdate: ["v_Data": .data(Data("new".utf8))], client: F.one)
        #expect(changed.status == .success)
        #expect(await Self.digest(engine, data: true) != first, "new data, new digest")
    }
}
