public import Foundation

/// A JSON value with the line and column where it starts, so that every complaint about a
/// real-world association file can point at the offending text.
public indirect enum JSONNode: Sendable, Hashable {
    case object([(key: String, value: Positioned)])
    case array([Positioned])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        case .array(let elements): hasher.combine(elements)
        case .string(let text): hasher.combine(text)
        case .number(let number): hasher.combine(number)
        case .bool(let flag): hasher.combine(flag)
        case .null: hasher.combine(0)
        }
    }

    /// The JSON type's name, for messages.
    public var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a Boolean"
        case .null: "null"
        }
    }
}

/// A value and where it starts.
public struct Positioned: Sendable, Hashable {
    public let node: JSONNode
    public let position: TextPosition

    /// The member with this key, if this is an object that has it (the first, if repeated).
    public subscript(key: String) -> Positioned? {
        guard case .object(let members) = node else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A 1-based line and column.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public var description: String { "\(line):\(column)" }

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Why bytes are not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let position: TextPosition
    public var description: String { "\(position): \(message)" }
}

/// A strict RFC 8259 parser: no comments, no trailing commas, no single quotes, only space, tab,
/// CR and LF as whitespace (spec associations.md b.5).
public struct PositionedJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// How far along the current line columns have been counted, and the count there: positions
    /// are asked for in increasing order, so each byte is counted once (linear, not per value).
    private var countedTo = 0
    private var countedColumns = 0
    /// Bytes looked at to work out columns: at most the input's size (tests check this).
    private(set) var columnWork = 0
    /// Nesting deeper than this is refused rather than risking the stack.
    private static let maximumDepth = 512

    /// Parses one JSON text (and nothing after it but whitespace).
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> Positioned {
        var columnWork = 0
        return try parse(data, columnWork: &columnWork)
    }

    /// Parses, and tells how many bytes were looked at to work out columns.
    static func parse(_ data: Data, columnWork: inout Int) throws(JSONSyntaxError) -> Positioned {
        var parser = PositionedJSONParser(bytes: Array(data))
        defer { columnWork = parser.columnWork }
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The current line and column. Columns count characters, not bytes: UTF-8 continuation bytes
    /// do not start one.
    private mutating func position() -> TextPosition {
        let end = min(index, bytes.count)
        if countedTo < lineStart || countedTo > end {
            countedTo = lineStart
            countedColumns = 0
        }
        while countedTo < end {
            if bytes[countedTo] & 0xC0 != 0x80 { countedColumns += 1 }
            countedTo += 1
            columnWork += 1
        }
        return TextPosition(line: line, column: countedColumns + 1)
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position())
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF { return "a byte order mark" }
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 { return "a no-break space (not JSON whitespace)" }
        if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80 {
            switch bytes[index + 2] {
            case 0x9C, 0x9D: return "a curly double quote (use \")"
            case 0x98, 0x99: return "a curly single quote"
            case 0x80...0x8A: return "a Unicode space (not JSON whitespace)"
            default: break
            }
        }
        return String(format: "byte 0x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> Positioned {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        let start = position()
        guard index < bytes.count else { throw error("unexpected end of file: a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return Positioned(node: try object(depth: depth), position: start)
        case UInt8(ascii: "["): return Positioned(node: try array(depth: depth), position: start)
        case UInt8(ascii: "\""): return Positioned(node: .string(try string()), position: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return Positioned(node: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return Positioned(node: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return Positioned(node: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Positioned(node: .number(try number()), position: start)
        default: throw error("unexpected \(describeCurrent()): a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected \(describeCurrent()) in '\(word)'") }
            index += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        index += 1
        var members: [(key: String, value: Positioned)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                let trailing = index < bytes.count && bytes[index] == UInt8(ascii: "}")
                throw error(trailing ? "a trailing comma before '}'" : "unexpected \(describeCurrent()): a key in double quotes was expected")
            }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()): ':' was expected") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: ',' or '}' was expected") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("unexpected \(describeCurrent()): ',' or '}' was expected") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        index += 1
        var elements: [Positioned] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("a trailing comma before ']'") }
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: ',' or ']' was expected") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("unexpected \(describeCurrent()): ',' or ']' was expected") }
            index += 1
            return .array(elements)
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else { throw error("the string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    scalars += Array(String(Character(scalar)).utf8)
                default:
                    index -= 1
                    throw error("unknown escape '\\\(Character(UnicodeScalar(escape)))'")
                }
            case 0x00..<0x20:
                throw error("a control character (byte 0x\(String(byte, radix: 16, uppercase: true))) inside a string: escape it")
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unexpected end of file inside a string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = UInt32(String(UnicodeScalar(bytes[index])), radix: 16) else {
                throw error("a \\u escape needs four hexadecimal digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw error("a digit was expected") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) {
            throw error("a number may not start with 0")
        }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, digits.contains(bytes[index]) else { throw error("a digit was expected after '.'") }
            while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, digits.contains(bytes[index]) else { throw error("a digit was expected in the exponent") }
            while index < bytes.count, digits.contains(bytes[index]) { index += 1 }
        }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
    }
}
