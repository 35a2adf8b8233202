public import Foundation

/// JSON exactly as RFC 8259 writes it, checked before a decoder reads it: Foundation's decoders
/// keep one of two repeated keys silently and accept trailing commas, so `{"acct": "a", "acct": "b"}`
/// would be read as a query its writer did not mean. Every JSON input of the lab (kclab's queries,
/// device sockets, keychaind's bodies) is checked here; the first problem is named with its line
/// and column.
public enum StrictJSON {
    /// What is wrong, and where (line and column from 1, counted in bytes).
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        /// The key when the problem is a key given twice in one object.
        public let repeatedKey: String?

        public var description: String { "\(line):\(column): \(message)" }

        /// The refusal every JSON input gives: a repeated key by name, anything else with its
        /// place. `subject` names the input ("the request", "the body").
        public func refusal(of subject: String) -> String {
            repeatedKey.map { "\(subject) repeats the key '\($0)' in one object" } ?? "\(subject) is not valid JSON: \(self)"
        }
    }

    /// Objects and arrays nest at most this deep.
    public static let maximumDepth = 512

    /// The first problem of `data`, or nil when it is one JSON value, strictly written.
    public static func problem(in data: Data) -> Problem? {
        data.withUnsafeBytes { bytes in
            var parser = Parser(bytes: bytes)
            return parser.document()
        }
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        var depth = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func document() -> Problem? {
            skipSpace()
            if let problem = value() { return problem }
            skipSpace()
            return index < bytes.count ? fail("text after the JSON value") : nil
        }

        mutating func value() -> Problem? {
            guard index < bytes.count else { return fail("the text ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().problem
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return fail("a value cannot start with '\(Self.show(bytes[index]))'")
            }
        }

        mutating func object() -> Problem? {
            if let problem = enter() { return problem }
            var keys: Set<String> = []
            skipSpace()
            if peek(UInt8(ascii: "}")) { return leave() }
            while true {
                skipSpace()
                guard peek(UInt8(ascii: "\"")) else {
                    return fail(peek(UInt8(ascii: "}")) ? "a trailing comma before '}'" : "expected a key in double quotes")
                }
                // The key's place is worked out only when it is needed: counting lines from the
                // start for every key would make a long object quadratic.
                let keyStart = index
                let (key, problem) = string()
                if let problem { return problem }
                if let key, !keys.insert(key).inserted {
                    let (line, column) = position(of: keyStart)
                    return Problem(line: line, column: column, message: "the key '\(key)' is given twice in one object", repeatedKey: key)
                }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return fail("expected ':' after the key") }
                skipSpace()
                if let problem = value() { return problem }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                if peek(UInt8(ascii: "}")) { return leave() }
                return fail("expected ',' or '}'")
            }
        }

        mutating func array() -> Problem? {
            if let problem = enter() { return problem }
            skipSpace()
            if peek(UInt8(ascii: "]")) { return leave() }
            while true {
                skipSpace()
                if peek(UInt8(ascii: "]")) { return fail("a trailing comma before ']'") }
                if let problem = value() { return problem }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                if peek(UInt8(ascii: "]")) { return leave() }
                return fail("expected ',' or ']'")
            }
        }

        /// A string literal; its text when it is an object's key candidate (escapes decoded).
        mutating func string() -> (String?, problem: Problem?) {
            let start = index
            index += 1
            var escaped = false
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    let text =
                        escaped
                        ? try? JSONDecoder().decode(String.self, from: Data(literal))
                        : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
                    return (text, nil)
                case UInt8(ascii: "\\"):
                    escaped = true
                    guard index + 1 < bytes.count else { return (nil, fail("a string that does not end")) }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                        UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        guard index + 5 < bytes.count, (2...5).allSatisfy({ Self.isHex(bytes[index + $0]) }) else {
                            return (nil, fail("\\u needs four hexadecimal digits"))
                        }
                        index += 6
                    default:
                        index += 1
                        return (nil, fail("'\\\(Self.show(bytes[index]))' is not a JSON escape"))
                    }
                case 0..<0x20:
                    return (nil, fail("a control character inside a string (write it as an escape)"))
                default:
                    index += 1
                }
            }
            return (nil, fail("a string that does not end"))
        }

        mutating func number() -> Problem? {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                if index < bytes.count, Self.isDigit(bytes[index]) { return fail("a number cannot start with 0") }
            } else if !digits() {
                return fail("expected a digit")
            }
            if take(UInt8(ascii: ".")), !digits() { return fail("expected a digit after '.'") }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
                if !digits() { return fail("expected a digit in the exponent") }
            }
            return nil
        }

        mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func literal(_ word: StaticString) -> Problem? {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
            else { return fail("expected \(word)") }
            index += count
            return nil
        }

        mutating func enter() -> Problem? {
            depth += 1
            index += 1
            return depth > StrictJSON.maximumDepth ? fail("nested deeper than \(StrictJSON.maximumDepth) levels") : nil
        }

        mutating func leave() -> Problem? {
            depth -= 1
            index += 1
            return nil
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek(byte) else { return false }
            index += 1
            return true
        }

        func fail(_ message: String) -> Problem {
            let (line, column) = position(of: min(index, bytes.count))
            return Problem(line: line, column: column, message: message, repeatedKey: nil)
        }

        func position(of offset: Int) -> (Int, Int) {
            var line = 1
            var lineStart = 0
            for at in 0..<offset where bytes[at] == 0x0A {
                line += 1
                lineStart = at + 1
            }
            return (line, offset - lineStart + 1)
        }

        static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        static func isHex(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        static func show(_ byte: UInt8) -> String {
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }
    }
}
