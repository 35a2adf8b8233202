import AppIdentity
import LabErrors
import Yams

/// A YAML node that knows where it came from, so every error names the file, line and key.
struct YAMLValue {
    let node: Node
    /// The key path from the top: `apps[1].entitlements`.
    let path: String
    /// The world file's name.
    let file: String

    /// An error at this node.
    func error(_ code: WorldError.Code, _ message: String) -> WorldError {
        WorldError(code, file: file, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0, key: path, message: message)
    }

    /// A child's value, for building paths.
    func child(_ node: Node, key: String) -> YAMLValue {
        YAMLValue(node: node, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The node as a mapping whose keys must all be in `known`.
    func mapping(known: [String]) throws(WorldError) -> YAMLMapping {
        guard case .mapping(let mapping) = node else {
            throw error(.malformedValue, "expected a mapping of \(known.joined(separator: ", ")), found \(kind)")
        }
        var entries: [String: YAMLValue] = [:]
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw child(keyNode, key: "?").error(.malformedValue, "keys must be plain text")
            }
            let key = scalar.string
            guard known.contains(key) else {
                let value = YAMLValue(node: keyNode, path: path, file: file)
                throw value.error(.unknownKey, "unknown key '\(key)' (known keys: \(known.joined(separator: ", ")))")
            }
            entries[key] = child(valueNode, key: key)
        }
        return YAMLMapping(owner: self, entries: entries)
    }

    /// The node as a mapping whose keys may be anything (entitlements, AASA content).
    func openMapping() throws(WorldError) -> [(key: String, value: YAMLValue)] {
        guard case .mapping(let mapping) = node else {
            throw error(.malformedValue, "expected a mapping, found \(kind)")
        }
        var entries: [(key: String, value: YAMLValue)] = []
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw child(keyNode, key: "?").error(.malformedValue, "keys must be plain text")
            }
            entries.append((scalar.string, child(valueNode, key: scalar.string)))
        }
        return entries
    }

    /// The node as a sequence of values.
    func sequence() throws(WorldError) -> [YAMLValue] {
        guard case .sequence(let sequence) = node else {
            throw error(.malformedValue, "expected a list, found \(kind)")
        }
        return sequence.enumerated().map { index, element in
            YAMLValue(node: element, path: "\(path)[\(index)]", file: file)
        }
    }

    /// The node as text; numbers and Booleans give their written form, so `17.4` reads as "17.4".
    func string() throws(WorldError) -> String {
        guard case .scalar(let scalar) = node, scalar.tagName != .null || scalar.style != .plain else {
            throw error(.malformedValue, "expected text, found \(kind)")
        }
        return scalar.string
    }

    /// The node as a list of text values.
    func strings() throws(WorldError) -> [String] {
        var values: [String] = []
        for element in try sequence() { values.append(try element.string()) }
        return values
    }

    /// The node as `true` or `false`.
    func bool() throws(WorldError) -> Bool {
        guard case .scalar(let scalar) = node, scalar.tagName == .bool, let value = node.bool else {
            throw error(.malformedValue, "expected true or false, found \(kind)")
        }
        return value
    }

    /// The node as a whole number.
    func int() throws(WorldError) -> Int {
        guard case .scalar(let scalar) = node, scalar.tagName == .int, let value = node.int else {
            throw error(.malformedValue, "expected a whole number, found \(kind)")
        }
        return value
    }

    /// Parses the text with a validating initializer, reporting its complaint at this node.
    func parse<T>(_ make: (String) throws(IdentityError) -> T) throws(WorldError) -> T {
        let text = try string()
        do {
            return try make(text)
        } catch {
            throw self.error(.malformedValue, error.message)
        }
    }

    /// The node as a property-list value: Booleans, whole numbers, text, lists and mappings; with
    /// `variables`, Xcode's build variables are expanded in every text, errors naming the element.
    func plistValue(expanding variables: BuildVariables? = nil) throws(WorldError) -> PlistValue {
        switch node {
        case .scalar(let scalar):
            switch scalar.tagName {
            case .bool: return .bool(node.bool ?? false)
            case .int:
                guard let number = node.int else { throw error(.malformedValue, "the number \(scalar.string) is too large") }
                return .integer(number)
            case .null where scalar.style == .plain: throw error(.malformedValue, "expected a value, found nothing")
            default:
                guard let variables else { return .string(scalar.string) }
                do {
                    return .string(try variables.expand(scalar.string))
                } catch {
                    throw self.error(.malformedValue, error.message)
                }
            }
        case .sequence:
            var elements: [PlistValue] = []
            for element in try sequence() { elements.append(try element.plistValue(expanding: variables)) }
            return .array(elements)
        case .mapping:
            var entries: [String: PlistValue] = [:]
            for (key, value) in try openMapping() { entries[key] = try value.plistValue(expanding: variables) }
            return .dictionary(entries)
        case .alias:
            throw error(.malformedValue, "aliases are not supported")
        }
    }

    /// Whether the node is a single value rather than a list or mapping.
    var isScalar: Bool {
        if case .scalar = node { return true }
        return false
    }

    /// What the node is, for messages.
    var kind: String {
        switch node {
        case .scalar(let scalar):
            scalar.tagName == .null && scalar.style == .plain ? "nothing" : "'\(scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}

/// A mapping whose keys have been checked against the format.
struct YAMLMapping {
    let owner: YAMLValue
    let entries: [String: YAMLValue]

    /// A key that must be present.
    func required(_ key: String) throws(WorldError) -> YAMLValue {
        guard let value = entries[key] else {
            throw owner.error(.missingKey, "the required key '\(key)' is missing")
        }
        return value
    }

    /// A key that may be absent.
    func optional(_ key: String) -> YAMLValue? {
        entries[key]
    }
}

extension Node.Scalar {
    /// The tag the default resolver gives an untagged scalar (Yams resolves lazily).
    var tagName: Tag.Name {
        Tag.Name(rawValue: Node.scalar(self).tag.rawValue)
    }
}
