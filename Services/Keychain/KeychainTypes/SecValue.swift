public import Foundation

/// A value in a SecItem dictionary, as Core Foundation types it: CFString, CFData, CFNumber,
/// CFBoolean, CFDate, CFArray, CFDictionary.
///
/// Its JSON form is unambiguous so that it can cross process boundaries: text, numbers, Booleans,
/// arrays and objects as themselves, data as `{"$data": "BASE64"}` and dates as
/// `{"$date": "ISO 8601"}` (SecItem keys never start with `$`).
public indirect enum SecValue: Hashable, Sendable {
    case string(String)
    case data(Data)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case array([SecValue])
    case dictionary([String: SecValue])

    /// The text, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is data.
    public var data: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The entries, when this is a dictionary.
    public var dictionaryValue: [String: SecValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The flag, when this is a Boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A number as CFNumber conversions read it: integers, Booleans (0 or 1), and decimal strings
    /// (securityd's `copyNumber` accepts all three).
    public var number: Int64? {
        switch self {
        case .integer(let value): value
        case .bool(let value): value ? 1 : 0
        case .double(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
        case .string(let text): Int64(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// Whether this is truthy the way `CFBooleanGetValue` / a non-zero CFNumber is.
    public var isTrue: Bool {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .double(let value): value != 0
        default: false
        }
    }

    /// The Core Foundation type name, for messages.
    public var typeName: String {
        switch self {
        case .string: "CFString"
        case .data: "CFData"
        case .integer, .double: "CFNumber"
        case .bool: "CFBoolean"
        case .date: "CFDate"
        case .array: "CFArray"
        case .dictionary: "CFDictionary"
        }
    }
}

extension SecValue: Codable {
    private enum Tag: String, CodingKey {
        case data = "$data"
        case date = "$date"
    }

    /// Any key, to count an object's keys.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .dictionary(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .data(let value):
            var container = encoder.container(keyedBy: Tag.self)
            try container.encode(value.base64EncodedString(), forKey: .data)
        case .date(let value):
            var container = encoder.container(keyedBy: Tag.self)
            try container.encode(SecValue.formatDate(value), forKey: .date)
        }
    }

    public init(from decoder: any Decoder) throws {
        // Each failed attempt below throws (and builds) a DecodingError, so the likeliest kinds go
        // first: text (most attribute values), then numbers and Booleans, and objects last.
        if let container = try? decoder.singleValueContainer() {
            if let value = try? container.decode(String.self) {
                self = .string(value)
                return
            }
            if let value = try? container.decode(Int64.self) {
                self = .integer(value)
                return
            }
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? container.decode(Double.self) {
                self = .double(value)
                return
            }
        }
        // A tag stands for data or a date only when it is the object's one key.
        if let tagged = try? decoder.container(keyedBy: Tag.self), tagged.allKeys.count == 1,
            (try? decoder.container(keyedBy: AnyKey.self))?.allKeys.count == 1
        {
            if let text = try tagged.decodeIfPresent(String.self, forKey: .data) {
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorruptedError(forKey: .data, in: tagged, debugDescription: "not base64")
                }
                self = .data(data)
                return
            }
            if let text = try tagged.decodeIfPresent(String.self, forKey: .date) {
                guard let date = SecValue.parseDate(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .date, in: tagged, debugDescription: "not an ISO 8601 date")
                }
                self = .date(date)
                return
            }
        }
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode([SecValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: SecValue].self))
        }
    }

    /// ISO 8601 in UTC with as many fractional digits (3 to 9) as it takes for ``parseDate(_:)``
    /// to give back the very same `Date`: `2026-11-22T03:12:45.123Z`,
    /// `2026-11-24T06:46:01.564218521Z`. An app passes the `cdat` it was given back in a query,
    /// and securityd compares dates exactly.
    public static func formatDate(_ date: Date) -> String {
        let time = date.timeIntervalSinceReferenceDate
        guard time.isFinite else { return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        let whole = time.rounded(.down)
        var stamp = Date(timeIntervalSinceReferenceDate: whole).formatted(Date.ISO8601FormatStyle())
        guard stamp.hasSuffix("Z") else { return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        stamp.removeLast()
        // The fewest digits that read back exactly; nine always come within half a nanosecond.
        let fraction = time - whole
        var digits = 3
        var numerator = min((fraction * 1e3).rounded(), 999)
        while digits < 9, whole + numerator / pow(10, Double(digits)) != time {
            digits += 1
            numerator = min((fraction * pow(10, Double(digits))).rounded(), pow(10, Double(digits)) - 1)
        }
        let text = String(Int(numerator))
        return stamp + "." + String(repeating: "0", count: digits - text.count) + text + "Z"
    }

    /// Reads ISO 8601 with or without fractional seconds (any number of digits, kept exactly as
    /// ``formatDate(_:)`` wrote them).
    public static func parseDate(_ text: String) -> Date? {
        guard let dot = text.firstIndex(of: "."), let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) else {
            return try? Date(text, strategy: Date.ISO8601FormatStyle())
        }
        let digits = text[text.index(after: dot)..<zone]
        guard (1...15).contains(digits.count), digits.allSatisfy(\.isASCII), let numerator = Int(digits),
            let whole = try? Date(String(text[..<dot] + text[zone...]), strategy: Date.ISO8601FormatStyle())
        else { return nil }
        let seconds = whole.timeIntervalSinceReferenceDate
        return Date(timeIntervalSinceReferenceDate: seconds + Double(numerator) / pow(10, Double(digits.count)))
    }
}
