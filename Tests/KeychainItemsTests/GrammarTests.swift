import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// The dictionary grammar of spec keychain.md §2.2, status by status.
@Suite struct GrammarTests {
    typealias F = Fixtures

    static let cases: [(String, [String: SecValue], SecStatus)] = [
        ("missing class", ["acct": .string("a")], .param),
        ("unknown class", ["class": .string("nope")], .noSuchClass),
        ("class not a string", ["class": .integer(1)], .param),
        ("unknown attribute", F.query(["zzzz": .string("a")]), .noSuchAttr),
        ("attribute of another class", F.query(["srvr": .string("example.com")]), .noSuchAttr),
        ("kSecReturnData not a Boolean", F.query(["r_Data": .string("yes")]), .param),
        ("unknown return key", F.query(["r_Everything": .bool(true)]), .param),
        ("unknown use key", F.query(["u_Whatever": .bool(true)]), .param),
        ("unknown value key", F.query(["v_Thing": .bool(true)]), .param),
        ("one-letter key", F.query(["x": .bool(true)]), .param),
        ("unknown long key", F.query(["zzzzz": .bool(true)]), .param),
        ("bad match limit", F.query(["m_Limit": .string("m_LimitSome")]), .param),
        ("zero match limit", F.query(["m_Limit": .integer(0)]), .param),
        ("private clip attribute", F.query(["clip": .bool(true)]), .param),
        ("account of the wrong type", F.query(["acct": .integer(3)]), .param),
        ("number given as data", F.query(["crtr": .data(Data("abc".utf8))]), .param),
        ("date that is not a date", F.query(["cdat": .string("yesterday")]), .param),
        ("kSecUseItemList", F.query(["u_ItemList": .array([])]), .param),
        ("issuers on a password", F.query(["m_Issuers": .array([])]), .unimplemented),
        ("host match on a generic password", F.query(["m_HostOrSubdomainOfHost": .string("example.com")]), .unimplemented),
    ]

    @Test func rejectsEachMalformedQuery() async {
        let engine = F.engine()
        _ = await engine.add(F.password(), client: F.one)
        for (name, query, expected) in Self.cases {
            let result = await engine.copyMatching(query, client: F.one)
            #expect(result.status == expected, "\(name): \(result.status) \(result.reason ?? "")")
            #expect(result.result == nil)
        }
    }

    /// copyNumber keeps a string that is not a decimal number as the string (src ITEM), which is
    /// how `kSecAttrProtocol: kSecAttrProtocolHTTPS` ("htps") is stored and found.
    @Test func aNumberAttributeKeepsANonDecimalString() async {
        let engine = F.engine()
        let item: [String: SecValue] = [
            "class": .string("inet"), "srvr": .string("example.com"), "acct": .string("alice"), "ptcl": .string("htps"),
            "v_Data": .data(Data("pw".utf8)),
        ]
        #expect(await engine.add(item, client: F.one).status == .success)
        let query: [String: SecValue] = ["class": .string("inet"), "srvr": .string("example.com"), "r_Attributes": .bool(true)]
        let found = await engine.copyMatching(query.merging(["ptcl": .string("htps")]) { $1 }, client: F.one)
        #expect(found.status == .success)
        if case .dictionary(let attributes)? = found.result { #expect(attributes["ptcl"] == .string("htps")) } else { Issue.record("no attributes") }
        #expect(await engine.copyMatching(query.merging(["ptcl": .string("http")]) { $1 }, client: F.one).status == .itemNotFound)
        // A decimal string is a number: "42" finds creator 42.
        #expect(await engine.add(F.password(["crtr": .string("42"), "acct": .string("n")]), client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(["crtr": .integer(42), "acct": .string("n")]), client: F.one).status == .success)
    }

    @Test func rejectsMoreThan128Keys() async {
        var query = F.query()
        for index in 0..<129 { query["f_\(index)"] = .bool(true) }
        #expect(await F.engine().copyMatching(query, client: F.one).status == .param)
    }

    @Test func ignoresTheDataProtectionKeyAndCallbacks() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["nleg": .bool(true), "f_callback": .bool(true)]), client: F.one).status == .success)
    }

    @Test func addRejectsBadValues() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["v_Data": .string("not data")]), client: F.one).status == .param)
        #expect(await engine.add(F.password(["pdmn": .string("sometimes")]), client: F.one).status == .param)
        #expect(await engine.add(F.password(["v_Ref": .string("ref")]), client: F.one).status == .param)
        #expect(await engine.add(F.password(["u_ItemList": .array([])]), client: F.one).status == .param)
        #expect(await engine.add(F.password(["v_PersistentRef": .data(Data(count: 12))]), client: F.one).status == .param)
    }

    @Test func numbersAcceptBooleansAndDecimalStrings() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["crtr": .string("1234"), "invi": .bool(true)]), client: F.one).status == .success)
        let found = await engine.copyMatching(F.query(["crtr": .integer(1234), "r_Attributes": .bool(true)]), client: F.one)
        #expect(found.result?.dictionaryValue?["invi"] == .integer(1))
    }
}
