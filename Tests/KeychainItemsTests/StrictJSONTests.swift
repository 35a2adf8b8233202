import Foundation
import KeychainTypes
import Testing

/// Every JSON input is checked strictly before it is decoded: a key given twice in one object is
/// found wherever the object is, and anything RFC 8259 does not allow is named with its place.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        (#"{"acct": "a", "acct": "b"}"#, "acct"),
        (#"{"class": "genp", "q": {"x": 1, "y": [1, {"z": 2, "z": 3}]}}"#, "z"),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"op": "add", "query": {"acct": "x"}, "op": "delete"}"#, "op"),
    ])
    func findsTheRepeatedKey(_ json: String, _ key: String) {
        #expect(StrictJSON.problem(in: Data(json.utf8))?.repeatedKey == key)
    }

    @Test(arguments: [
        #"{"acct": "a", "svce": "b"}"#,
        #"{"a": {"k": 1}, "b": {"k": 2}}"#,
        #"[{"k": 1}, {"k": 2}]"#,
        #"{"text": "acct\", \"acct\": 1", "acct": 2}"#,
        #"{"k": ["k", "k"]}"#,
        #" {"n": [-0.5e+3, 0, 10, 1E9, true, false, null, "\u00e9\n\/"]} "#,
        "\"just a string\"",
    ])
    func acceptsStrictJSON(_ json: String) {
        #expect(StrictJSON.problem(in: Data(json.utf8)) == nil)
    }

    @Test(arguments: [
        (#"{"class": "genp",}"#, 1, 18, "a trailing comma before '}'"),
        ("{\"class\": [1,\n 2,]}", 2, 4, "a trailing comma before ']'"),
        ("{\"class\":\n  \"genp\" \"x\"}", 2, 10, "expected ',' or '}'"),
        (#"{'class': 1}"#, 1, 2, "expected a key in double quotes"),
        (#"{"a": 01}"#, 1, 8, "a number cannot start with 0"),
        (#"{"a": tru}"#, 1, 7, "expected true"),
        (#"{"a": "\x"}"#, 1, 9, "'\\x' is not a JSON escape"),
        (#"{"a": 1} x"#, 1, 10, "text after the JSON value"),
        (#"{"unterminated"#, 1, 15, "a string that does not end"),
        ("", 1, 1, "the text ends where a value should be"),
        ("{\"a\": \"\\", 1, 8, "a string that does not end"),
    ])
    func namesWhatIsWrongAndWhere(_ json: String, _ line: Int, _ column: Int, _ message: String) throws {
        let problem = try #require(StrictJSON.problem(in: Data(json.utf8)))
        #expect(problem.message == message, "\(problem)")
        #expect(problem.line == line && problem.column == column, "\(problem)")
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: StrictJSON.maximumDepth + 1) + String(repeating: "]", count: StrictJSON.maximumDepth + 1)
        #expect(StrictJSON.problem(in: Data(deep.utf8))?.message.hasPrefix("nested deeper") == true)
    }

    @Test func conventionalQueriesRefuseARepeatedKeyAndATrailingComma() {
        #expect(throws: ConventionalJSONError.self) {
            try ConventionalJSON.dictionary(from: Data(#"{"class": "genp", "acct": "a", "acct": "b"}"#.utf8))
        }
        #expect(throws: ConventionalJSONError.self) {
            try ConventionalJSON.dictionary(from: Data(#"{"class": "genp",}"#.utf8))
        }
    }
}
