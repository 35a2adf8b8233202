import Foundation
import Testing

@testable import PositionedJSON
@testable import SiteAssociation

/// The association file's readers do work linear in their input, whatever its shape (issue 24,
/// point 1 and 4). Each check counts the work done, never the time taken: the same input always
/// counts the same, on any machine.
@Suite struct LinearTimeTests {
    /// An AASA file whose one array holds `count` numbers, on one line (the shape that took
    /// minutes when every value's column was counted from the line's start).
    static func longArray(_ count: Int) -> Data {
        Data(("{\"webcredentials\": {\"apps\": [" + Array(repeating: "1", count: count).joined(separator: ",") + "]}}").utf8)
    }

    /// Many keys, long strings and deep nesting: the other shapes point 1 names.
    static func manyKeys(_ count: Int) -> Data {
        Data(("{" + (0..<count).map { "\"k\($0)\": \"é\($0)\"" }.joined(separator: ",") + "}").utf8)
    }

    static func longString(_ count: Int) -> Data {
        Data(("{\"applinks\": {\"details\": [{\"appID\": \"" + String(repeating: "é", count: count) + "\"}]}}").utf8)
    }

    static func deepNesting(_ count: Int) -> Data {
        Data((String(repeating: "[", count: count) + String(repeating: "]", count: count)).utf8)
    }

    static func columnWork(_ data: Data) -> Int {
        var work = 0
        _ = try? PositionedJSONParser.parse(data, columnWork: &work)
        return work
    }

    @Test(arguments: [longArray, manyKeys, longString] as [@Sendable (Int) -> Data])
    func columnsAreCountedOncePerByte(_ shape: @Sendable (Int) -> Data) {
        for count in [1_000, 8_000] {
            let data = shape(count)
            #expect(Self.columnWork(data) <= data.count, "columns counted \(Self.columnWork(data)) bytes for \(data.count)")
        }
    }

    @Test func nestingUpToTheLimitIsLinear() {
        let data = Self.deepNesting(500)
        #expect(Self.columnWork(data) <= data.count)
        #expect(throws: JSONSyntaxError.self) { try PositionedJSONParser.parse(Self.deepNesting(600)) }
    }

    @Test func theIssuesFileIsReadWithItsPositions() throws {
        // 65,000 numbers: 130,060 bytes, just under the 128 KiB limit; once over two minutes.
        let data = Self.longArray(65_000)
        #expect(data.count < AssociationFile.maximumSize)
        #expect(Self.columnWork(data) <= data.count)
        let reading = AssociationFile.read(data)
        let failure = try #require(reading.checks.first { $0.rule == .appsType })
        #expect(failure.detail.contains("1:30"), "the first number's place: \(failure.detail)")
    }

    /// A pattern of `count` stars and letters that backtracking regular expressions take
    /// exponential time over, against a URL path of `length` characters that it does not match.
    static func hostileWork(stars count: Int, length: Int) -> (Bool, Int) {
        let pattern = GlobPattern(String(repeating: "*a", count: count) + "b", caseSensitive: true) { _ in nil }
        var work = 0
        let matched = pattern.matches(String(repeating: "a", count: length), work: &work)
        return (matched, work)
    }

    @Test func patternMatchingDoesNotBacktrack() {
        let (matched, work) = Self.hostileWork(stars: 100, length: 100)
        #expect(!matched)
        let (_, eightTimes) = Self.hostileWork(stars: 800, length: 100)
        #expect(eightTimes <= 9 * work, "\(work) then \(eightTimes)")
        // Bounded by (text + 1) × elements: the pattern has 2 × stars + 1 elements.
        #expect(work <= 101 * 201)
    }

    @Test func variablesCostTheirWordsNotTheirCount() {
        let words = (0..<5_000).map { "w\($0)" }
        let set = WordSet(words)
        let pattern = GlobPattern("/$(v)/$(v)/$(v)", caseSensitive: true) { $0 == "v" ? .words(set) : nil }
        var work = 0
        #expect(pattern.matches("/w1/w4999/w42", work: &work))
        #expect(work < 200, "the trie looks at each character once per start, not at 5,000 words: \(work)")
        #expect(!pattern.matches("/w1/w5000/w42"))
    }

    @Test func patternsStillMeanWhatTheySay() {
        func matches(_ pattern: String, _ text: String, caseSensitive: Bool = true) -> Bool {
            PatternMatcher(caseSensitive: caseSensitive, variables: ["v": ["ab", "abc"], "empty": []]).matches(pattern, text)
        }
        #expect(matches("/a/*", "/a/"))
        #expect(matches("/a/*", "/a/b/c"))
        #expect(!matches("/a/?", "/a/"))
        #expect(matches("/a/?", "/a/é"))
        #expect(matches("/$(v)c", "/abc"), "a shorter word, then the rest")
        #expect(matches("/$(v)", "/abc"))
        #expect(!matches("/$(v)", "/abcd"))
        #expect(!matches("/$(empty)", "/"), "a variable without words matches nothing")
        #expect(!matches("/$(undefined)", "/x"))
        #expect(matches("/$(digit)$(upper)", "/7Q"))
        #expect(!matches("/$(upper)", "/q"))
        #expect(matches("/$(upper)", "/q", caseSensitive: false))
        #expect(matches("/$(region)/$(lang)", "/GB/ace"))
        #expect(!matches("/$(region)", "/UK"))
        #expect(matches("/$(", "/$("), "an unclosed variable is literal text")
        #expect(matches("/Shop/*", "/shop/x", caseSensitive: false))
        #expect(!matches("/Shop/*", "/shop/x"))
    }
}
