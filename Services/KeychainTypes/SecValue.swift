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

    /// ISO 8601 with fractional seconds, in UTC: `2026-11-22T03:12:45.123Z`.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Reads ISO 8601 with or without fractional seconds.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
