public import Foundation
public import KeychainTypes

/// The call channel's byte form: big-endian integers, strings and data with a 32-bit length,
/// and ``SecValue``s as a tag byte and their content. Compact and cheap to read, which is the
/// point: a SecItem call between a device and keychaind costs microseconds, not a JSON document.
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    public mutating func write(_ value: UInt32) {
        bytes.append(contentsOf: [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ])
    }

    public mutating func write(_ value: UInt64) {
        write(UInt32(truncatingIfNeeded: value >> 32))
        write(UInt32(truncatingIfNeeded: value))
    }

    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func write(_ data: Data) {
        write(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    public mutating func write(_ value: SecValue) {
        switch value {
        case .string(let text):
            write(Tag.string.rawValue)
            write(text)
        case .data(let data):
            write(Tag.data.rawValue)
            write(data)
        case .integer(let number):
            write(Tag.integer.rawValue)
            write(UInt64(bitPattern: number))
        case .double(let number):
            write(Tag.double.rawValue)
            write(number.bitPattern)
        case .bool(let flag):
            write(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .date(let date):
            write(Tag.date.rawValue)
            write(date.timeIntervalSinceReferenceDate.bitPattern)
        case .array(let values):
            write(Tag.array.rawValue)
            write(UInt32(values.count))
            for element in values { write(element) }
        case .dictionary(let members):
            write(Tag.dictionary.rawValue)
            write(members)
        }
    }

    /// A dictionary's members, without a tag.
    public mutating func write(_ members: [String: SecValue]) {
        write(UInt32(members.count))
        for (key, element) in members {
            write(key)
            write(element)
        }
    }

    enum Tag: UInt8 {
        case string = 1
        case data, integer, double, `false`, `true`, date, array, dictionary
    }
}

/// Reads what a ``WireWriter`` wrote; every read checks what is left, so a short or hostile
/// message is a ``WireError``, never a crash or a huge allocation.
public struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// How deep arrays and dictionaries may nest.
    static let maximumDepth = 32

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw WireError("the message ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func readUInt32() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw WireError("the message ends early") }
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    public mutating func readUInt64() throws -> UInt64 {
        UInt64(try readUInt32()) << 32 | UInt64(try readUInt32())
    }

    private mutating func readBytes() throws -> ArraySlice<UInt8> {
        let count = Int(try readUInt32())
        guard bytes.count - offset >= count else { throw WireError("a length of \(count) runs past the message") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    public mutating func readString() throws -> String {
        let slice = try readBytes()
        guard let text = String(validating: slice, as: UTF8.self) else { throw WireError("a string is not UTF-8") }
        return text
    }

    public mutating func readData() throws -> Data {
        Data(try readBytes())
    }

    public mutating func readValue() throws -> SecValue {
        try readValue(depth: 0)
    }

    /// A dictionary's members, written without a tag.
    public mutating func readMembers() throws -> [String: SecValue] {
        try readMembers(depth: 0)
    }

    private mutating func readValue(depth: Int) throws -> SecValue {
        guard depth < Self.maximumDepth else { throw WireError("values nest deeper than \(Self.maximumDepth)") }
        let byte = try readByte()
        switch WireWriter.Tag(rawValue: byte) {
        case .string: return .string(try readString())
        case .data: return .data(try readData())
        case .integer: return .integer(Int64(bitPattern: try readUInt64()))
        case .double: return .double(Double(bitPattern: try readUInt64()))
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try readUInt64())))
        case .array:
            let count = try readCount()
            var values: [SecValue] = []
            for _ in 0..<count { values.append(try readValue(depth: depth + 1)) }
            return .array(values)
        case .dictionary:
            return .dictionary(try readMembers(depth: depth + 1))
        case nil:
            throw WireError("unknown value tag \(byte)")
        }
    }

    private mutating func readMembers(depth: Int) throws -> [String: SecValue] {
        let count = try readCount()
        var members: [String: SecValue] = [:]
        members.reserveCapacity(count)
        for _ in 0..<count {
            let key = try readString()
            members[key] = try readValue(depth: depth + 1)
        }
        return members
    }

    /// An element count; each element takes at least a byte, so a count larger than what is left
    /// is a lie and is refused before anything is allocated for it.
    private mutating func readCount() throws -> Int {
        let count = Int(try readUInt32())
        guard count <= bytes.count - offset else { throw WireError("a count of \(count) is more than the message holds") }
        return count
    }
}

/// A message that is not in the call channel's format.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
