import Foundation
import KeychainItems
import KeychainTypes

/// A compact, exact binary form of attribute dictionaries for sealing: a tag byte, then a
/// big-endian length or fixed-size value. Dates keep every bit of their `Double`, so a date read
/// back equals the date stored.
enum SecValueCodec {
    private enum Tag: UInt8 {
        case string = 1
        case data
        case integer
        case double
        case bool
        case date
        case array
        case dictionary
    }

    static func encode(_ dictionary: [String: SecValue]) -> Data {
        var out = Data()
        write(.dictionary(dictionary), into: &out)
        return out
    }

    static func decode(_ data: Data) throws -> [String: SecValue] {
        var reader = Reader(bytes: [UInt8](data))
        guard case .dictionary(let dictionary) = try reader.value(), reader.isAtEnd else {
            throw StoreFailure("sealed attributes are not a dictionary")
        }
        return dictionary
    }

    private static func write(_ value: SecValue, into out: inout Data) {
        func length(_ count: Int) {
            withUnsafeBytes(of: UInt32(count).bigEndian) { out.append(contentsOf: $0) }
        }
        switch value {
        case .string(let text):
            out.append(Tag.string.rawValue)
            let bytes = Data(text.utf8)
            length(bytes.count)
            out.append(bytes)
        case .data(let bytes):
            out.append(Tag.data.rawValue)
            length(bytes.count)
            out.append(bytes)
        case .integer(let number):
            out.append(Tag.integer.rawValue)
            withUnsafeBytes(of: number.bigEndian) { out.append(contentsOf: $0) }
        case .double(let number):
            out.append(Tag.double.rawValue)
            withUnsafeBytes(of: number.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        case .bool(let flag):
            out.append(Tag.bool.rawValue)
            out.append(flag ? 1 : 0)
        case .date(let date):
            out.append(Tag.date.rawValue)
            withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        case .array(let elements):
            out.append(Tag.array.rawValue)
            length(elements.count)
            for element in elements { write(element, into: &out) }
        case .dictionary(let entries):
            out.append(Tag.dictionary.rawValue)
            length(entries.count)
            for key in entries.keys.sorted() {
                write(.string(key), into: &out)
                write(entries[key]!, into: &out)
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, offset + count <= bytes.count else { throw StoreFailure("sealed attributes are truncated") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func word64() throws -> UInt64 {
            try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func length() throws -> Int {
            Int(try take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }

        mutating func value() throws -> SecValue {
            guard let tag = Tag(rawValue: try take(1).first!) else { throw StoreFailure("sealed attributes carry an unknown tag") }
            switch tag {
            case .string:
                let count = try length()
                guard let text = String(bytes: try take(count), encoding: .utf8) else { throw StoreFailure("sealed text is not UTF-8") }
                return .string(text)
            case .data:
                let count = try length()
                return .data(Data(try take(count)))
            case .integer:
                return .integer(Int64(bitPattern: try word64()))
            case .double:
                return .double(Double(bitPattern: try word64()))
            case .bool:
                return .bool(try take(1).first! != 0)
            case .date:
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try word64())))
            case .array:
                let count = try length()
                var elements: [SecValue] = []
                for _ in 0..<count { elements.append(try value()) }
                return .array(elements)
            case .dictionary:
                let count = try length()
                var entries: [String: SecValue] = [:]
                for _ in 0..<count {
                    guard case .string(let key) = try value() else { throw StoreFailure("a sealed key is not text") }
                    entries[key] = try value()
                }
                return .dictionary(entries)
            }
        }
    }
}
