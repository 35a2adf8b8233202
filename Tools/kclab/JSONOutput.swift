import Foundation

/// Writes JSON objects with their keys in a chosen order, one key per line, so that output reads
/// the way the docs show it (`{"valid": …, "appID": …}`); Foundation's encoder does not keep order.
enum JSONOutput {
    /// `fields` in order; each value is encoded on its own, arrays one element per line.
    static func object(_ fields: [(String, any Encodable)]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines: [String] = []
        for (key, value) in fields {
            let name = String(decoding: try encoder.encode(key), as: UTF8.self)
            if let array = value as? [any Encodable], !array.isEmpty {
                let elements = try array.map { "    " + String(decoding: try encoder.encode($0), as: UTF8.self) }
                lines.append("  \(name): [\n" + elements.joined(separator: ",\n") + "\n  ]")
            } else {
                lines.append("  \(name): " + String(decoding: try encoder.encode(value), as: UTF8.self))
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }

    /// `value` pretty-printed with sorted keys (dates ISO 8601 when `isoDates`).
    static func pretty(_ value: some Encodable, isoDates: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if isoDates { encoder.dateEncodingStrategy = .iso8601 }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
