import Foundation
import KeychainTypes
import Testing

/// The JSON people type into `kclab app call`: base64 and dates where Apple's keys take them.
@Suite struct ConventionalJSONTests {
    static func read(_ json: String) throws -> [String: SecValue] {
        try ConventionalJSON.dictionary(from: Data(json.utf8))
    }

    @Test func dataKeysTakeBase64AndDateKeysTakeISO8601() throws {
        let query = try Self.read(#"{"class": "genp", "v_Data": "dGVzdA==", "gena": "AAE=", "cdat": "2026-11-24T06:00:00Z", "acct": "dGVzdA=="}"#)
        #expect(query["v_Data"] == .data(Data("test".utf8)))
        #expect(query["gena"] == .data(Data([0, 1])))
        #expect(query["acct"] == .string("dGVzdA=="), "other keys keep their strings")
        guard case .date = query["cdat"] else {
            Issue.record("cdat is not a date")
            return
        }
    }

    @Test func aStringThatIsNotBase64StaysAString() throws {
        // si-11-update-data: kSecValueData given a CFString; the device answers errSecParam.
        #expect(try Self.read(#"{"v_Data": "bogus"}"#)["v_Data"] == .string("bogus"))
        #expect(try Self.read(#"{"v_PersistentRef": "not a reference"}"#)["v_PersistentRef"] == .string("not a reference"))
    }

    @Test func whatCannotBeAKeychainValueIsRefusedWithItsKey() {
        #expect(throws: ConventionalJSONError.self) { try Self.read(#"{"v_Data": null}"#) }
        #expect(throws: ConventionalJSONError.self) { try Self.read(#"{"cdat": "yesterday"}"#) }
        #expect(throws: ConventionalJSONError.self) { try Self.read(#"["class", "genp"]"#) }
        #expect(throws: ConventionalJSONError.self) { try Self.read("{not json") }
    }
}

/// Queries written with Apple's names, as Swift code writes them, read as the raw keys and values.
@Suite struct ConstantNameTests {
    @Test func aConstantsNameReadsAsItsValue() throws {
        let query = try ConventionalJSON.dictionary(
            from: Data(
                #"{"kSecClass": "kSecClassGenericPassword", "kSecAttrAccount": "alice", "kSecMatchLimit": "kSecMatchLimitAll", "kSecReturnData": true}"#
                    .utf8
            )
        )
        #expect(query == ["class": .string("genp"), "acct": .string("alice"), "m_Limit": .string("m_LimitAll"), "r_Data": .bool(true)])
        // An account that merely looks like a name stays itself when it names no constant.
        #expect(try ConventionalJSON.dictionary(from: Data(#"{"acct": "kSecNothing"}"#.utf8)) == ["acct": .string("kSecNothing")])
    }

    @Test func anUnknownNameOrTheSameKeyTwiceIsRefusedByName() {
        #expect(throws: ConventionalJSONError.self) { try ConventionalJSON.dictionary(from: Data(#"{"kSecClas": "genp"}"#.utf8)) }
        do {
            _ = try ConventionalJSON.dictionary(from: Data(#"{"kSecClas": "genp"}"#.utf8))
        } catch {
            #expect("\(error)".contains("kSecClas is not a constant"), "\(error)")
        }
        #expect(throws: ConventionalJSONError.self) { try ConventionalJSON.dictionary(from: Data(#"{"kSecClass": "genp", "class": "inet"}"#.utf8)) }
    }
}
