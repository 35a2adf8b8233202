/// A text with build-setting references, read once, left to right, into literal runs and
/// references, as Xcode's build system reads it (swift-build's `MacroExpressionParser`):
/// `$(NAME)` and `${NAME}`; `$NAME` (letters, digits, `_` and `.`); a name made of references,
/// `$(FOO_$(BAR))`; operators after colons, `$(NAME:lower:rfc1034identifier)`, and `:OP=VALUE`,
/// whose value ends at the next colon or the closing parenthesis and may hold references; `$$`
/// for one dollar sign; any other `$` is itself.
///
/// Each byte is looked at once and literal runs are slices of the text, never copies. A reference
/// that is never closed, or references nested deeper than `maximumNesting`, leave the text from
/// that reference on as written, and ``failure`` says so.
struct BuildSettingExpression {
    enum Part {
        case literal(Substring)
        case reference(Reference)
    }

    struct Reference {
        /// The name, itself possibly made of references.
        var name: [Part]
        var operations: [Operation]
        /// `$NAME`, without parentheses: Xcode keeps it as written when nothing defines it.
        var isBare: Bool
        /// The reference as written, for messages.
        var spelling: Substring
    }

    enum Operation {
        /// `:lower`, `:file`…: a function of the value.
        case retrieval(Substring)
        /// `:default=VALUE`: a replacement of the value, itself possibly made of references.
        case replacement(Substring, [Part])
    }

    /// Why the text from one reference on could not be read as references.
    struct Failure {
        enum Kind: Error {
            /// `$(NAME` with no `)` (or `${NAME` with no `}`) before the end of the text.
            case unterminated
            /// `$(A$(B$(C…` deeper than the nesting allowed.
            case nestedTooDeep
        }

        var kind: Kind
        /// The text from the reference on, kept as written.
        var rest: Substring
    }

    let parts: [Part]
    let failure: Failure?

    init(_ text: String, maximumNesting: Int) {
        var reader = Reader(text: text, index: text.startIndex, maximumNesting: maximumNesting)
        var parts: [Part] = []
        var failure: Failure? = nil
        var literal = reader.index
        while let byte = reader.byte {
            guard byte == Reader.dollar else {
                reader.advance()
                continue
            }
            if literal < reader.index { parts.append(.literal(text[literal..<reader.index])) }
            let start = reader.index
            do throws(Failure.Kind) {
                parts.append(try reader.dollarSign(depth: 0))
            } catch {
                // A nested reference that fails has read to the end of the text (or stopped at
                // the nesting bound): everything from the outermost one on is kept as written.
                failure = Failure(kind: error, rest: text[start...])
                reader.index = text.endIndex
            }
            literal = reader.index
        }
        if literal < reader.index { parts.append(.literal(text[literal..<reader.index])) }
        if let failure { parts.append(.literal(failure.rest)) }
        self.parts = parts
        self.failure = failure
    }
}

/// The reader's cursor: a byte position in the text, moved forward only.
private struct Reader {
    static let dollar = UInt8(ascii: "$")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")

    let text: String
    var index: String.Index
    let maximumNesting: Int

    var byte: UInt8? { index < text.utf8.endIndex ? text.utf8[index] : nil }

    mutating func advance() {
        index = text.utf8.index(after: index)
    }

    /// What a `$` at the cursor starts: a reference, or a literal dollar sign.
    mutating func dollarSign(depth: Int) throws(BuildSettingExpression.Failure.Kind) -> BuildSettingExpression.Part {
        let start = index
        advance()
        let afterDollar = index
        guard let opening = byte else { return .literal(text[start..<afterDollar]) }
        switch opening {
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            guard depth < maximumNesting else { throw BuildSettingExpression.Failure.Kind.nestedTooDeep }
            let close = opening == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            advance()
            let name = try parts(closing: close, depth: depth + 1)
            var operations: [BuildSettingExpression.Operation] = []
            while byte == Self.colon {
                advance()
                let operatorStart = index
                while let next = byte, next != Self.colon, next != Self.equals, next != close { advance() }
                let operatorName = text[operatorStart..<index]
                if byte == Self.equals {
                    advance()
                    operations.append(.replacement(operatorName, try parts(closing: close, depth: depth + 1)))
                } else {
                    operations.append(.retrieval(operatorName))
                }
            }
            guard byte == close else { throw BuildSettingExpression.Failure.Kind.unterminated }
            advance()
            return .reference(.init(name: name, operations: operations, isBare: false, spelling: text[start..<index]))
        case Self.dollar:
            advance()
            return .literal(text[start..<afterDollar])
        case _ where Self.startsName(opening):
            while let next = byte, Self.continuesName(next) { advance() }
            let name = text[afterDollar..<index]
            return .reference(.init(name: [.literal(name)], operations: [], isBare: true, spelling: text[start..<index]))
        default:
            return .literal(text[start..<afterDollar])
        }
    }

    /// The parts of a name or an operator's value: up to a colon or `close`, or the end of the text.
    private mutating func parts(closing close: UInt8, depth: Int) throws(BuildSettingExpression.Failure.Kind) -> [BuildSettingExpression.Part] {
        var parts: [BuildSettingExpression.Part] = []
        var literal = index
        while let next = byte, next != Self.colon, next != close {
            guard next == Self.dollar else {
                advance()
                continue
            }
            if literal < index { parts.append(.literal(text[literal..<index])) }
            parts.append(try dollarSign(depth: depth))
            literal = index
        }
        if literal < index { parts.append(.literal(text[literal..<index])) }
        return parts
    }

    private static func startsName(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    private static func continuesName(_ byte: UInt8) -> Bool {
        startsName(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
    }
}
