public import Foundation

/// Finds a key that appears twice in one JSON object. Foundation's decoders keep one of the two
/// silently, so `{"acct": "a", "acct": "b"}` would be read as a query its writer did not mean;
/// every JSON input of the lab (kclab's queries, device sockets, keychaind's bodies) is refused
/// instead, naming the key.
public enum JSONDuplicateKeys {
    /// The first key repeated within one object, or nil. Text that is not JSON gives nil: the
    /// decoder that reads it afterwards reports that with its own message.
    public static func first(in data: Data) -> String? {
        var scanner = Scanner()
        return data.withUnsafeBytes { scanner.scan($0) }
    }

    private struct Scanner {
        /// One open object (its keys so far, and whether a key comes next) or array.
        enum Frame {
            case object(keys: Set<String>, expectingKey: Bool)
            case array
        }

        var frames: [Frame] = []

        mutating func scan(_ bytes: UnsafeRawBufferPointer) -> String? {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"): frames.append(.object(keys: [], expectingKey: true))
                case UInt8(ascii: "["): frames.append(.array)
                case UInt8(ascii: "}"), UInt8(ascii: "]"): if !frames.isEmpty { frames.removeLast() }
                case UInt8(ascii: ","): setExpectingKey(true)
                case UInt8(ascii: ":"): setExpectingKey(false)
                case UInt8(ascii: "\""):
                    let start = index
                    var escaped = false
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\") {
                            escaped = true
                            index += 1
                        }
                        index += 1
                    }
                    guard index < bytes.count else { return nil }
                    if case .object(var keys, true) = frames.last {
                        let literal = UnsafeRawBufferPointer(rebasing: bytes[start...index])
                        guard let key = Self.string(literal, escaped: escaped) else { return nil }
                        guard keys.insert(key).inserted else { return key }
                        frames[frames.count - 1] = .object(keys: keys, expectingKey: false)
                    }
                default: break
                }
                index += 1
            }
            return nil
        }

        mutating func setExpectingKey(_ expecting: Bool) {
            if case .object(let keys, _) = frames.last { frames[frames.count - 1] = .object(keys: keys, expectingKey: expecting) }
        }

        /// A string literal's text (quotes included in `literal`): escapes decoded, so `"a"` and
        /// `"\u0061"` are the same key.
        static func string(_ literal: UnsafeRawBufferPointer, escaped: Bool) -> String? {
            guard escaped else { return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self) }
            return try? JSONDecoder().decode(String.self, from: Data(literal))
        }
    }
}
