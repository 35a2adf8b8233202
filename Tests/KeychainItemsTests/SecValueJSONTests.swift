import Foundation
import KeychainTypes
import Testing

/// SecValue's JSON form keeps each Core Foundation kind apart.
@Suite struct SecValueJSONTests {
    static func decode(_ json: String) throws -> SecValue {
        try JSONDecoder().decode(SecValue.self, from: Data(json.utf8))
    }

    @Test(
        arguments: [
            ("\"1\"", SecValue.string("1")), ("1", .integer(1)), ("-7", .integer(-7)), ("1.5", .double(1.5)),
            ("true", .bool(true)), ("false", .bool(false)), (#"{"$data": "AAE="}"#, .data(Data([0, 1]))),
            (#"{"a": 1, "b": "x"}"#, .dictionary(["a": .integer(1), "b": .string("x")])),
            (#"[1, "a", true]"#, .array([.integer(1), .string("a"), .bool(true)])),
            (#"{"$data": "AAE=", "other": 1}"#, .dictionary(["$data": .string("AAE="), "other": .integer(1)])),
        ]
    )
    func decodesEachKind(json: String, expected: SecValue) throws {
        #expect(try Self.decode(json) == expected)
    }

    @Test func decodesDates() throws {
        guard case .date(let date) = try Self.decode(#"{"$date": "2026-11-22T03:12:45.123Z"}"#) else {
            Issue.record("not a date")
            return
        }
        #expect(abs(date.timeIntervalSince1970 - 1_795_317_165.123) < 0.000_5)
    }

    @Test func roundTrips() throws {
        let value = SecValue.dictionary([
            "s": .string("text"), "i": .integer(42), "d": .double(0.25), "b": .bool(false), "data": .data(Data("x".utf8)),
            "list": .array([.string("1"), .integer(1)]),
        ])
        #expect(try JSONDecoder().decode(SecValue.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test func refusesBadTaggedValues() {
        #expect(throws: (any Error).self) { try Self.decode(#"{"$data": "not base64!"}"#) }
        #expect(throws: (any Error).self) { try Self.decode(#"{"$date": "yesterday"}"#) }
    }
}

/// Dates cross JSON (kclab, and an app's socket to its device) without losing a bit: an app may
/// query with the `cdat` it was given, and securityd compares dates exactly.
@Suite struct DatePrecisionTests {
    @Test(arguments: [
        815_000_000.0, 815_000_000.5, 815_000_000.123, 785_567_161.564_218_521, 785_567_161.564_218_6, -12_345.678_9, 0.25,
        Date(timeIntervalSince1970: 1_764_000_000.987_654_3).timeIntervalSinceReferenceDate,
    ])
    func aDateReadsBackExactly(_ time: Double) throws {
        let date = Date(timeIntervalSinceReferenceDate: time)
        let text = SecValue.formatDate(date)
        #expect(SecValue.parseDate(text)?.timeIntervalSinceReferenceDate == time, "\(text)")
        #expect(text.hasSuffix("Z"))
        let json = try JSONEncoder().encode(SecValue.date(date))
        #expect(try JSONDecoder().decode(SecValue.self, from: json) == .date(date))
    }

    @Test func whatIsExactInMillisecondsKeepsThreeDigits() {
        #expect(SecValue.formatDate(Date(timeIntervalSince1970: 1_795_317_165.125)) == "2026-11-22T03:12:45.125Z")
        #expect(SecValue.formatDate(Date(timeIntervalSince1970: 1_795_317_165)) == "2026-11-22T03:12:45.000Z")
    }

    @Test func itReadsWhatPeopleWrite() {
        let whole = SecValue.parseDate("2026-11-22T03:12:45Z")?.timeIntervalSince1970
        #expect(whole == 1_795_317_165)
        #expect(SecValue.parseDate("2026-11-22T03:12:45.5Z")?.timeIntervalSince1970 == 1_795_317_165.5)
        #expect(SecValue.parseDate("2026-11-22T05:12:45.25+02:00")?.timeIntervalSince1970 == 1_795_317_165.25)
        #expect(SecValue.parseDate("yesterday") == nil)
        #expect(SecValue.parseDate("2026-11-22T03:12:45.x5Z") == nil)
    }
}
