/// A CBOR data item (RFC 8949), as much of CBOR as WebAuthn uses: integers, byte and text
/// strings, arrays, maps, booleans and null, all of definite length. Maps keep their order.
public indirect enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// A negative integer: the value is -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([(key: CBOR, value: CBOR)])
    case bool(Bool)
    case null

    /// An integer as CBOR.
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The integer, when this is one that fits an `Int`.
    public var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    public var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The value under `key` in a map.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The value under a text key in a map.
    public subscript(text key: String) -> CBOR? { self[.text(key)] }

    /// The value under an integer key in a map.
    public subscript(int key: Int) -> CBOR? { self[.int(key)] }

    public static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .negative(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .bytes(let value): hasher.combine(value)
        case .text(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .map(let pairs):
            hasher.combine(pairs.count)
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        case .bool(let value): hasher.combine(value)
        case .null: hasher.combine(7)
        }
    }
}
