import Foundation
public import KeychainTypes

/// The grammar of SecItem dictionaries (spec keychain.md §2.2, src SecDbQuery.c `query_applier`).
public enum QueryParser {
    /// More keys than this is `errSecParam` (`QUERY_KEY_LIMIT`).
    public static let keyLimit = 128

    static let returnKeys = ["r_Data", "r_Attributes", "r_Ref", "r_PersistentRef"]
    static let useKeys: Set<String> = [
        "u_OpPrompt", "u_NoAuthUI", "u_AuthUI", "u_AuthCtx", "u_ItemList", "u_Tomb", "u_Keychain", "u_CredRef",
    ]
    static let authUIValues: Set<String> = ["u_AuthUIA", "u_AuthUIF", "u_AuthUIS"]

    /// Rejects the private attributes no client may pass (src SRV `queryHasValidAttributes`).
    public static func checkInternalAttributes(_ dictionary: [String: SecValue]) throws(SecItemError) {
        if dictionary["clip"] != nil {
            throw SecItemError(.param, .queryForm, "the private attribute clip (kSecAttrAppClipItem) may not be passed")
        }
    }

    /// Parses a query or an add dictionary.
    public static func parse(_ dictionary: [String: SecValue]) throws(SecItemError) -> ParsedQuery {
        if dictionary.count > keyLimit {
            throw SecItemError(.param, .queryForm, "\(dictionary.count) keys is more than the \(keyLimit) a query may have")
        }
        var query = ParsedQuery(itemClass: try itemClass(of: dictionary))
        for key in dictionary.keys.sorted() {
            try apply(key, dictionary[key]!, to: &query)
        }
        return query
    }

    /// Parses `attributesToUpdate`: every key but `kSecValueData` is an attribute (src `query_update_applier`).
    public static func parseUpdate(_ dictionary: [String: SecValue], itemClass: ItemClass) throws(SecItemError) -> ParsedQuery {
        if dictionary.count > keyLimit {
            throw SecItemError(.param, .queryForm, "\(dictionary.count) keys is more than the \(keyLimit) a query may have")
        }
        var update = ParsedQuery(itemClass: itemClass)
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]!
            if key == "v_Data" {
                guard case .data(let data) = value else { throw SecItemError(.param, .queryForm, "v_Data must be CFData") }
                update.valueData = data
            } else if key == "musr" || key == "nleg" {
                continue
            } else if key.utf8.count == 4, let spec = itemClass.schema[key] {
                try applyAttribute(spec, value, to: &update)
            } else {
                throw SecItemError(
                    .noSuchAttr,
                    .attribute,
                    "'\(key)' is not an attribute of \(itemClass.rawValue) and cannot be updated\(legacyNote(key))"
                )
            }
        }
        return update
    }

    /// What an unknown `kSecAttrAccess` is: macOS's, for its login keychain, which securityd's
    /// data-protection keychain (and iOS) does not have.
    private static func legacyNote(_ key: String) -> String {
        key == LegacyAccess.key ? " (kSecAttrAccess is a Mac login keychain's access control list; the data-protection keychain has none)" : ""
    }

    /// The class: `kSecClass`, or the one a persistent reference carries.
    private static func itemClass(of dictionary: [String: SecValue]) throws(SecItemError) -> ItemClass {
        guard let value = dictionary["class"] else {
            if case .data(let data)? = dictionary["v_PersistentRef"], let reference = PersistentRef(data) {
                return reference.itemClass
            }
            throw SecItemError(.param, .queryForm, "kSecClass is missing")
        }
        guard let name = value.string else { throw SecItemError(.param, .queryForm, "kSecClass must be a CFString") }
        guard let itemClass = ItemClass(rawValue: name) else {
            throw SecItemError(.noSuchClass, .attribute, "'\(name)' is not a keychain item class")
        }
        return itemClass
    }

    private static func apply(_ key: String, _ value: SecValue, to query: inout ParsedQuery) throws(SecItemError) {
        if key == "class" { return }
        if key.utf8.count == 4 {
            // kSecUseDataProtectionKeychain is dispatched as an attribute and ignored by the daemon.
            if key == "nleg" || key == "musr" { return }
            guard let spec = query.itemClass.schema[key] ?? (key == "tomb" ? AttributeSpec("tomb", .number) : nil) else {
                throw SecItemError(.noSuchAttr, .attribute, "'\(key)' is not an attribute of \(query.itemClass.rawValue)\(legacyNote(key))")
            }
            try applyAttribute(spec, value, to: &query)
            return
        }
        guard key.utf8.count > 1, let first = key.first else {
            throw SecItemError(.param, .queryForm, "'\(key)' is not a SecItem key")
        }
        switch first {
        case "m":
            query.matchKeys[key] = value
            if key == "m_Limit" { query.matchLimit = try matchLimit(value) }
        case "r":
            guard returnKeys.contains(key) else { throw SecItemError(.param, .queryForm, "'\(key)' is not a kSecReturn key") }
            guard case .bool(let flag) = value else { throw SecItemError(.param, .queryForm, "\(key) must be a CFBoolean") }
            switch key {
            case "r_Data": query.returnData = flag
            case "r_Attributes": query.returnAttributes = flag
            case "r_Ref": query.returnRef = flag
            default: query.returnPersistentRef = flag
            }
        case "u":
            guard useKeys.contains(key) else { throw SecItemError(.param, .queryForm, "'\(key)' is not a kSecUse key") }
            if key == "u_AuthUI", !(value.string.map(authUIValues.contains) ?? false) {
                throw SecItemError(.param, .queryForm, "u_AuthUI must be kSecUseAuthenticationUIAllow, Fail or Skip")
            }
            query.useKeys[key] = value
        case "v":
            switch key {
            case "v_Data":
                guard case .data(let data) = value else { throw SecItemError(.param, .queryForm, "v_Data must be CFData") }
                query.valueData = data
            case "v_Ref":
                query.hasValueRef = true
            case "v_PersistentRef":
                guard case .data(let data) = value else { throw SecItemError(.param, .queryForm, "v_PersistentRef must be CFData") }
                query.persistentRef = data
            default:
                throw SecItemError(.param, .queryForm, "'\(key)' is not a kSecValue key")
            }
        case "f":
            return
        default:
            throw SecItemError(.param, .queryForm, "'\(key)' is not a SecItem key")
        }
    }

    private static func applyAttribute(_ spec: AttributeSpec, _ value: SecValue, to query: inout ParsedQuery) throws(SecItemError) {
        if spec.kind == .synchronizable {
            if value.string == "syna" {
                query.synchronizable = .any
            } else {
                let converted = try AttributeConversion.convert(value, for: spec)
                query.synchronizable = .only(converted.number == 1)
            }
            return
        }
        query.attributes[spec.code] = try AttributeConversion.convert(value, for: spec)
    }

    private static func matchLimit(_ value: SecValue) throws(SecItemError) -> ParsedQuery.MatchLimit {
        switch value {
        case .string("m_LimitOne"): return .count(1)
        case .string("m_LimitAll"): return .all
        case .integer(let count) where count > 0: return .count(Int(clamping: count))
        default: throw SecItemError(.param, .queryForm, "m_Limit must be kSecMatchLimitOne, kSecMatchLimitAll or a positive CFNumber")
        }
    }
}
