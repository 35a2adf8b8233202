import Foundation
import KeychainTypes
import Testing

/// A key given twice in one JSON object is found, wherever the object is; the same key in two
/// objects is not a duplicate.
@Suite struct JSONDuplicateKeysTests {
    @Test(arguments: [
        (#"{"acct": "a", "acct": "b"}"#, "acct"),
        (#"{"class": "genp", "q": {"x": 1, "y": [1, {"z": 2, "z": 3}]}}"#, "z"),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"op": "add", "query": {"acct": "x"}, "op": "delete"}"#, "op"),
    ])
    func findsTheRepeatedKey(_ json: String, _ key: String) {
        #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == key)
    }

    @Test(arguments: [
        #"{"acct": "a", "svce": "b"}"#,
        #"{"a": {"k": 1}, "b": {"k": 2}}"#,
        #"[{"k": 1}, {"k": 2}]"#,
        #"{"text": "acct\", \"acct\": 1", "acct": 2}"#,
        #"{"k": ["k", "k"]}"#,
        #"{"unterminated"#,
    ])
    func acceptsWhatHasNoDuplicate(_ json: String) {
        #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == nil)
    }

    @Test func conventionalQueriesRefuseARepeatedKey() {
        #expect(throws: ConventionalJSONError.self) {
            try ConventionalJSON.dictionary(from: Data(#"{"class": "genp", "acct": "a", "acct": "b"}"#.utf8))
        }
    }
}
