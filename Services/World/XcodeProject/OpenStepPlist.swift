public import LabErrors

/// The errors of reading an Xcode project.
public enum XcodeProjectErrors: ErrorDomain {}
public typealias XcodeProjectError = CodedError<XcodeProjectErrors>

extension CodedError.Code where Domain == XcodeProjectErrors {
    /// Text that is not an old-style property list (with its line and column).
    public static let syntax = Self("syntax")
    /// A property list that is not the shape of a `project.pbxproj`.
    public static let shape = Self("shape")
    /// A file that cannot be read, or is larger than a project file can be.
    public static let unreadable = Self("unreadable")
}

/// A value of an old-style (OpenStep) property list, the format Xcode writes `project.pbxproj`
/// in: strings, arrays and dictionaries; numbers and data stay text, as Xcode reads them.
public indirect enum OpenStepValue: Hashable, Sendable {
    case string(String)
    case array([OpenStepValue])
    case dictionary([String: OpenStepValue])

    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var array: [OpenStepValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var dictionary: [String: OpenStepValue]? {
        if case .dictionary(let value) = self { value } else { nil }
    }
}

/// Reads an old-style property list in one pass over its bytes: each byte is looked at a
/// constant number of times, line and column are counted as the reader moves (never by
/// rescanning), nesting is bounded, and a repeated key keeps its last value, as Xcode does.
public struct OpenStepPlistReader {
    /// Deeper nesting than any project file has.
    public static let maximumDepth = 128
    /// Larger than any project file (the biggest public ones are a few MB).
    public static let maximumSize = 64 << 20

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The property list in `text`, or a syntax error naming the line and column.
    public static func read(_ bytes: [UInt8]) throws(XcodeProjectError) -> OpenStepValue {
        guard bytes.count <= maximumSize else {
            throw XcodeProjectError(.unreadable, "\(bytes.count) bytes is more than the \(maximumSize) a project file may have")
        }
        var reader = OpenStepPlistReader(bytes)
        reader.skipSpaceAndComments()
        let value = try reader.value()
        reader.skipSpaceAndComments()
        guard reader.index == bytes.count else { throw reader.failure("text after the end of the property list") }
        return value
    }

    private mutating func value() throws(XcodeProjectError) -> OpenStepValue {
        guard index < bytes.count else { throw failure("the file ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (reader: inout Self) throws(XcodeProjectError) in try reader.dictionary() }
        case UInt8(ascii: "("): return try nested { (reader: inout Self) throws(XcodeProjectError) in try reader.array() }
        case UInt8(ascii: "\""): return .string(try quoted())
        case UInt8(ascii: "<"): return .string(try data())
        default: return .string(try bare())
        }
    }

    private mutating func nested(_ read: (inout Self) throws(XcodeProjectError) -> OpenStepValue) throws(XcodeProjectError) -> OpenStepValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        depth += 1
        defer { depth -= 1 }
        return try read(&self)
    }

    private mutating func dictionary() throws(XcodeProjectError) -> OpenStepValue {
        advance()  // {
        var entries: [String: OpenStepValue] = [:]
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { throw failure("the file ends inside a dictionary: '}' is missing") }
            if bytes[index] == UInt8(ascii: "}") {
                advance()
                return .dictionary(entries)
            }
            let key = bytes[index] == UInt8(ascii: "\"") ? try quoted() : try bare()
            skipSpaceAndComments()
            try expect("=", "after the key '\(key)'")
            skipSpaceAndComments()
            let value = try value()
            skipSpaceAndComments()
            try expect(";", "after the value of '\(key)'")
            entries[key] = value
        }
    }

    private mutating func array() throws(XcodeProjectError) -> OpenStepValue {
        advance()  // (
        var elements: [OpenStepValue] = []
        while true {
            skipSpaceAndComments()
            guard index < bytes.count else { throw failure("the file ends inside an array: ')' is missing") }
            if bytes[index] == UInt8(ascii: ")") {
                advance()
                return .array(elements)
            }
            elements.append(try value())
            skipSpaceAndComments()
            guard index < bytes.count else { throw failure("the file ends inside an array: ')' is missing") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
            } else if bytes[index] != UInt8(ascii: ")") {
                throw failure("expected ',' or ')' in an array")
            }
        }
    }

    /// A string in double quotes, with the escapes Xcode writes (`\"`, `\\`, `\n`, `\t`, `\r`).
    private mutating func quoted() throws(XcodeProjectError) -> String {
        advance()  // "
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            advance()
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escaped = bytes[index]
                advance()
                switch escaped {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                default: text.append(escaped)
                }
            default: text.append(byte)
            }
        }
        throw failure("the file ends inside a quoted string")
    }

    /// `<hex bytes>`, kept as its text.
    private mutating func data() throws(XcodeProjectError) -> String {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") { advance() }
        guard index < bytes.count else { throw failure("the file ends inside <data>") }
        advance()
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// An unquoted string: letters, digits and `_$+/:.-`.
    private mutating func bare() throws(XcodeProjectError) -> String {
        let start = index
        while index < bytes.count, Self.isBare(bytes[index]) { advance() }
        guard index > start else {
            throw failure("unexpected '\(String(decoding: [bytes[start]], as: UTF8.self))'")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: byte >= 0x80
        }
    }

    private mutating func expect(_ character: Character, _ place: String) throws(XcodeProjectError) {
        guard index < bytes.count, bytes[index] == character.asciiValue else { throw failure("expected '\(character)' \(place)") }
        advance()
    }

    /// Skips white space, `/* … */` and `// …` comments.
    private mutating func skipSpaceAndComments() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                advance()
                advance()
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    advance()
                }
                if index < bytes.count {
                    advance()
                    advance()
                }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { advance() }
            } else {
                return
            }
        }
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        index += 1
    }

    private func failure(_ message: String) -> XcodeProjectError {
        XcodeProjectError(.syntax, "line \(line), column \(column): \(message)")
    }
}
