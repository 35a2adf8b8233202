/// Reads CBOR from untrusted bytes, with bounds: no indefinite lengths, no tags, no floats, at
/// most `maximumDepth` levels and `maximumItems` items, and no length past the end of the input.
public struct CBORDecoder {
    public struct Failure: Error, Hashable, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { "malformed CBOR: \(message)" }
    }

    public static let maximumDepth = 16
    public static let maximumItems = 4096

    private let bytes: [UInt8]
    private(set) var offset = 0
    private var items = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one item `bytes` holds; bytes after it are refused.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> CBOR {
        let (item, length) = try decodePrefix(bytes)
        guard length == bytes.count else { throw Failure(message: "\(bytes.count - length) bytes follow the item") }
        return item
    }

    /// The first item of `bytes` and how many bytes it took (authenticator data carries a COSE key
    /// followed by more).
    public static func decodePrefix(_ bytes: [UInt8]) throws(Failure) -> (CBOR, Int) {
        var decoder = CBORDecoder(bytes)
        let item = try decoder.item(depth: 0)
        return (item, decoder.offset)
    }

    private mutating func byte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw Failure(message: "the input ends inside an item") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: UInt64) throws(Failure) -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else { throw Failure(message: "a length of \(count) runs past the end") }
        defer { offset += Int(count) }
        return Array(bytes[offset..<offset + Int(count)])
    }

    private mutating func argument(_ info: UInt8) throws(Failure) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            var value: UInt64 = 0
            for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
            return value
        case 31: throw Failure(message: "indefinite lengths are not accepted")
        default: throw Failure(message: "reserved additional information \(info)")
        }
    }

    private mutating func item(depth: Int) throws(Failure) -> CBOR {
        guard depth < Self.maximumDepth else { throw Failure(message: "nested deeper than \(Self.maximumDepth)") }
        items += 1
        guard items <= Self.maximumItems else { throw Failure(message: "more than \(Self.maximumItems) items") }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2: return .bytes(try take(try argument(info)))
        case 3:
            guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else {
                throw Failure(message: "a text string is not UTF-8")
            }
            return .text(text)
        case 4:
            let count = try argument(info)
            guard count <= UInt64(bytes.count - offset) else { throw Failure(message: "an array of \(count) runs past the end") }
            var elements: [CBOR] = []
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try argument(info)
            guard count <= UInt64(bytes.count - offset) / 2 else { throw Failure(message: "a map of \(count) runs past the end") }
            var pairs: [(key: CBOR, value: CBOR)] = []
            var keys: Set<CBOR> = []
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard keys.insert(key).inserted else { throw Failure(message: "a map repeats a key") }
                pairs.append((key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        case 6: throw Failure(message: "tags are not accepted")
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw Failure(message: "simple value or float \(info) is not accepted")
            }
        }
    }
}
