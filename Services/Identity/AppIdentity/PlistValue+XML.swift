public import Foundation

extension PlistValue {
    /// Writes a dictionary as an XML property list in the layout Apple's tools write (tab indents,
    /// keys sorted), so equal values give equal bytes.
    ///
    /// Written by hand rather than with `PropertyListSerialization`: linked with
    /// `--static-swift-stdlib`, Foundation's writer refuses every array ("property lists cannot
    /// contain objects of type 'Not A Type'"), which the container images' static binaries hit.
    public static func xmlPropertyList(_ entries: [String: PlistValue]) -> Data {
        var writer = XMLPlistWriter()
        writer.text += """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        writer.write(.dictionary(entries), depth: 0)
        writer.text += "</plist>\n"
        return Data(writer.text.utf8)
    }
}

/// The XML property-list writer behind `PlistValue.xmlPropertyList`.
private struct XMLPlistWriter {
    var text = ""

    mutating func write(_ value: PlistValue, depth: Int) {
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .string(let string):
            text += "\(indent)<string>\(Self.escaped(string))</string>\n"
        case .bool(let flag):
            text += flag ? "\(indent)<true/>\n" : "\(indent)<false/>\n"
        case .integer(let number):
            text += "\(indent)<integer>\(number)</integer>\n"
        case .real(let number):
            text += "\(indent)<real>\(number)</real>\n"
        case .date(let date):
            text += "\(indent)<date>\(date.formatted(.iso8601))</date>\n"
        case .data(let data):
            text += "\(indent)<data>\n"
            let encoded = Array(data.base64EncodedString())
            for start in stride(from: 0, to: encoded.count, by: 68) {
                text += indent + String(encoded[start..<min(start + 68, encoded.count)]) + "\n"
            }
            text += "\(indent)</data>\n"
        case .array(let elements) where elements.isEmpty:
            text += "\(indent)<array/>\n"
        case .array(let elements):
            text += "\(indent)<array>\n"
            for element in elements { write(element, depth: depth + 1) }
            text += "\(indent)</array>\n"
        case .dictionary(let entries) where entries.isEmpty:
            text += "\(indent)<dict/>\n"
        case .dictionary(let entries):
            text += "\(indent)<dict>\n"
            for key in entries.keys.sorted() {
                text += "\(indent)\t<key>\(Self.escaped(key))</key>\n"
                write(entries[key]!, depth: depth + 1)
            }
            text += "\(indent)</dict>\n"
        }
    }

    /// Text as XML character data: the three characters XML reserves there, escaped.
    static func escaped(_ string: String) -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for character in string {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
