import Foundation

/// SecValue's binary form: a tag byte, then a big-endian 32-bit length and the bytes, or a fixed
/// 8-byte value; dictionaries write their keys in sorted order, so one value always gives the same
/// bytes. Dates keep every bit of their `Double`.
///
/// keychaind seals attributes in this form and digests lookup values in it (so it must never
/// change), and the call channel carries SecItem dictionaries in it.
public enum SecValueBinary {
    enum Tag: UInt8 {
        case string = 1
        case data
        case integer
        case double
        case bool
        case date
        case array
        case dictionary
    }

    /// How deep arrays and dictionaries may nest when read.
    public static let maximumDepth = 64

    /// The bytes of `value`.
    public static func encode(_ value: SecValue) -> [UInt8] {
        var writer = Writer()
        writer.write(value)
        return writer.bytes
    }

    /// Appends values, and the integers and strings around them, to a byte array.
    public struct Writer: Sendable {
        public private(set) var bytes: [UInt8] = []

        public init(capacity: Int = 256) {
            bytes.reserveCapacity(capacity)
        }

        public mutating func write(_ byte: UInt8) { bytes.append(byte) }

        public mutating func write(_ value: UInt32) {
            bytes.append(UInt8(truncatingIfNeeded: value >> 24))
            bytes.append(UInt8(truncatingIfNeeded: value >> 16))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            bytes.append(UInt8(truncatingIfNeeded: value))
        }

        public mutating func write(_ value: UInt64) {
            write(UInt32(truncatingIfNeeded: value >> 32))
            write(UInt32(truncatingIfNeeded: value))
        }

        /// A string without a tag: its UTF-8 length, then its bytes.
        public mutating func write(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                write(UInt32(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        /// A tagged value.
        public mutating func write(_ value: SecValue) {
            switch value {
            case .string(let text):
                write(Tag.string.rawValue)
                write(text)
            case .data(let data):
                write(Tag.data.rawValue)
                write(UInt32(data.count))
                bytes.append(contentsOf: data)
            case .integer(let number):
                write(Tag.integer.rawValue)
                write(UInt64(bitPattern: number))
            case .double(let number):
                write(Tag.double.rawValue)
                write(number.bitPattern)
            case .bool(let flag):
                write(Tag.bool.rawValue)
                write(flag ? UInt8(1) : 0)
            case .date(let date):
                write(Tag.date.rawValue)
                write(date.timeIntervalSinceReferenceDate.bitPattern)
            case .array(let elements):
                write(Tag.array.rawValue)
                write(UInt32(elements.count))
                for element in elements { write(element) }
            case .dictionary(let entries):
                write(Tag.dictionary.rawValue)
                write(UInt32(entries.count))
                for key in entries.keys.sorted() {
                    write(.string(key))
                    write(entries[key]!)
                }
            }
        }
    }

    /// Reads what a ``Writer`` wrote. Every read checks what is left, so short or hostile bytes
    /// are ``Malformed``, never a crash or a huge allocation.
    public struct Reader {
        private let bytes: [UInt8]
        private var offset = 0

        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        public var isAtEnd: Bool { offset == bytes.count }

        public mutating func readByte() throws -> UInt8 {
            guard offset < bytes.count else { throw Malformed("the bytes end early") }
            defer { offset += 1 }
            return bytes[offset]
        }

        public mutating func readUInt32() throws -> UInt32 {
            guard bytes.count - offset >= 4 else { throw Malformed("the bytes end early") }
            defer { offset += 4 }
            return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }

        public mutating func readUInt64() throws -> UInt64 {
            UInt64(try readUInt32()) << 32 | UInt64(try readUInt32())
        }

        /// A string without a tag.
        public mutating func readString() throws -> String {
            // Through a buffer pointer: the generic collection path costs a metadata lookup per string.
            guard let text = try readBytes().withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
                throw Malformed("a string is not UTF-8")
            }
            return text
        }

        /// A tagged value.
        public mutating func readValue() throws -> SecValue {
            try readValue(depth: 0)
        }

        /// A tagged value that must be a dictionary.
        public mutating func readDictionary() throws -> [String: SecValue] {
            guard case .dictionary(let entries) = try readValue() else { throw Malformed("a dictionary was expected") }
            return entries
        }

        private mutating func readBytes() throws -> ArraySlice<UInt8> {
            let count = Int(try readUInt32())
            guard bytes.count - offset >= count else { throw Malformed("a length of \(count) runs past the end") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        /// An element count; each element takes at least a byte, so a count larger than what is
        /// left is refused before anything is allocated for it.
        private mutating func readCount() throws -> Int {
            let count = Int(try readUInt32())
            guard count <= bytes.count - offset else { throw Malformed("a count of \(count) is more than the bytes hold") }
            return count
        }

        private mutating func readValue(depth: Int) throws -> SecValue {
            guard depth < SecValueBinary.maximumDepth else { throw Malformed("values nest deeper than \(SecValueBinary.maximumDepth)") }
            let byte = try readByte()
            switch Tag(rawValue: byte) {
            case .string: return .string(try readString())
            case .data: return .data(Data(try readBytes()))
            case .integer: return .integer(Int64(bitPattern: try readUInt64()))
            case .double: return .double(Double(bitPattern: try readUInt64()))
            case .bool: return .bool(try readByte() != 0)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try readUInt64())))
            case .array:
                let count = try readCount()
                var elements: [SecValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try readValue(depth: depth + 1)) }
                return .array(elements)
            case .dictionary:
                let count = try readCount()
                var entries: [String: SecValue] = [:]
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    guard case .string(let key) = try readValue(depth: depth + 1) else { throw Malformed("a dictionary key is not text") }
                    entries[key] = try readValue(depth: depth + 1)
                }
                return .dictionary(entries)
            case nil:
                throw Malformed("unknown value tag \(byte)")
            }
        }
    }

    /// Bytes that are not a value in this form.
    public struct Malformed: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String

        public init(_ description: String) {
            self.description = description
        }
    }
}
