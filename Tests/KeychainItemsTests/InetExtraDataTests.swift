import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// ATEST `testInetBinaryFields`: an internet password's extra data fields are stored, updated,
/// and returned with the data only, never as plain attributes.
@Suite struct InetExtraDataTests {
    typealias F = Fixtures

    static let fields: [String: SecValue] = [
        "binn": .data(Data("OBVIOUS_NOTES_DATA".utf8)), "bini": .data(Data("OBVIOUS_HISTORY_DATA".utf8)),
        "bin0": .data(Data("OBVIOUS_CLIENT0_DATA".utf8)), "bin1": .data(Data("OBVIOUS_CLIENT1_DATA".utf8)),
        "bin2": .data(Data("OBVIOUS_CLIENT2_DATA".utf8)), "bin3": .data(Data("OBVIOUS_CLIENT3_DATA".utf8)),
    ]

    static func shown(_ value: SecValue?) -> [String: SecValue] {
        if case .array(let items)? = value, items.count == 1 { return items[0].dictionaryValue ?? [:] }
        return value?.dictionaryValue ?? [:]
    }

    @Test func extraFieldsComeOnlyWithTheData() async {
        let engine = F.engine()
        var item: [String: SecValue] = [
            "class": .string("inet"), "pdmn": .string("ak"), "desc": .string("desc"), "srvr": .string("server"),
            "acct": .string("test-account"), "v_Data": .data(Data("asdf".utf8)), "r_Attributes": .bool(true),
        ]
        item.merge(Self.fields) { $1 }
        let added = await engine.add(item, client: F.one)
        #expect(added.status == .success)
        #expect(Self.fields.keys.allSatisfy { Self.shown(added.result)[$0] == nil }, "not returned as attributes from add")

        let find: [String: SecValue] = ["class": .string("inet"), "acct": .string("test-account")]
        for limit in [SecValue.string("m_LimitOne"), .string("m_LimitAll")] {
            var attributesOnly = find
            attributesOnly["r_Attributes"] = .bool(true)
            attributesOnly["m_Limit"] = limit
            let plain = Self.shown(await engine.copyMatching(attributesOnly, client: F.one).result)
            #expect(plain["srvr"] == .string("server"))
            #expect(Self.fields.keys.allSatisfy { plain[$0] == nil }, "not returned as attributes (\(limit))")

            var withData = attributesOnly
            withData["r_Data"] = .bool(true)
            let full = Self.shown(await engine.copyMatching(withData, client: F.one).result)
            #expect(full["v_Data"] == .data(Data("asdf".utf8)))
            #expect(Self.fields.allSatisfy { full[$0.key] == $0.value }, "returned with the data (\(limit))")
        }
        var passwordOnly = find
        passwordOnly["r_Data"] = .bool(true)
        #expect(await engine.copyMatching(passwordOnly, client: F.one).result == .data(Data("asdf".utf8)))

        let history = Data("gone".utf8)
        #expect(await engine.update(find, attributesToUpdate: ["bini": .data(history)], client: F.one).status == .success)
        var again = find
        again["r_Attributes"] = .bool(true)
        again["r_Data"] = .bool(true)
        let updated = Self.shown(await engine.copyMatching(again, client: F.one).result)
        #expect(updated["bini"] == .data(history))
        #expect(updated["binn"] == Self.fields["binn"])
    }

    @Test func genericPasswordsHaveNoExtraFields() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["binn": .data(Data("x".utf8))]), client: F.one).status == .noSuchAttr)
    }
}
