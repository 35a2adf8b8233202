public import Foundation
public import LabErrors

/// A property-list value, as entitlements and profiles hold them.
public indirect enum PlistValue: Hashable, Sendable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The text, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The flag, when this is a Boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [PlistValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, when this is a dictionary.
    public var dictionary: [String: PlistValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array of strings and nothing else.
    public var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }
}

extension PlistValue {
    /// Converts what `PropertyListSerialization` returns. A binary property list may share one
    /// object between many places, so a few hundred bytes can stand for 2^depth values: the
    /// conversion counts every value it makes against `budget` and refuses to go past it, or
    /// deeper than `maximumDepth`.
    public init(foundation object: Any) throws(IdentityError) {
        var budget = Self.defaultBudget
        try self.init(foundation: object, budget: &budget, depth: 0)
    }

    /// Values a conversion may make when no size is known.
    static let defaultBudget = 1 << 20
    /// Arrays and dictionaries nested deeper than this are refused.
    public static let maximumDepth = 64

    init(foundation object: Any, budget: inout Int, depth: Int) throws(IdentityError) {
        budget -= 1
        guard budget >= 0 else {
            throw IdentityError(.malformedPropertyList, "the property list stands for more values than its size allows (shared objects repeated)")
        }
        guard depth <= Self.maximumDepth else {
            throw IdentityError(.malformedPropertyList, "the property list nests deeper than \(Self.maximumDepth) levels")
        }
        switch object {
        case let value as String:
            self = .string(value)
        case let value as Date:
            self = .date(value)
        case let value as Data:
            self = .data(value)
        case let value as NSNumber:
            // Booleans and numbers both arrive as NSNumber; the type encoding tells them apart.
            switch String(cString: value.objCType) {
            case "c", "B": self = .bool(value.boolValue)
            case "f", "d": self = .real(value.doubleValue)
            default: self = .integer(value.intValue)
            }
        case let value as [Any]:
            var elements: [PlistValue] = []
            for element in value { elements.append(try PlistValue(foundation: element, budget: &budget, depth: depth + 1)) }
            self = .array(elements)
        case let value as [String: Any]:
            var entries: [String: PlistValue] = [:]
            for (key, element) in value { entries[key] = try PlistValue(foundation: element, budget: &budget, depth: depth + 1) }
            self = .dictionary(entries)
        default:
            throw IdentityError(.malformedPropertyList, "unsupported property-list value of type \(type(of: object))")
        }
    }

    /// Reads an XML or binary property list whose root is a dictionary.
    public static func dictionary(fromPropertyList data: Data) throws(IdentityError) -> [String: PlistValue] {
        // Without sharing, a property list holds fewer values than bytes.
        let limit = data.count + 64
        let expanded: Int?
        do throws(BinaryPropertyListShape.Malformed) {
            expanded = try BinaryPropertyListShape.expandedCount(data, limit: limit)
        } catch {
            throw IdentityError(.malformedPropertyList, "not a property list: \(error.reason)")
        }
        if let expanded, expanded > limit {
            throw IdentityError(
                .malformedPropertyList,
                "the binary property list stands for more values than its \(data.count) bytes hold (shared objects repeated)"
            )
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw IdentityError(.malformedPropertyList, "not a property list: \(error.localizedDescription)")
        }
        var budget = limit
        guard case .dictionary(let entries) = try PlistValue(foundation: object, budget: &budget, depth: 0) else {
            throw IdentityError(.malformedPropertyList, "the property list's root is not a dictionary")
        }
        return entries
    }
}

extension PlistValue: Codable {
    /// JSON form: strings, Booleans, numbers, arrays and objects as themselves; dates ISO 8601;
    /// data base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .date(let value): try container.encode(value.formatted(.iso8601))
        case .data(let value): try container.encode(value.base64EncodedString())
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PlistValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: PlistValue].self))
        }
    }
}
