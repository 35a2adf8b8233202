public import AppIdentity
import Crypto
import Foundation
public import KeychainTypes

/// How CopyMatching and Add shape their result (spec keychain.md §2.3 step 9, §2.4 table).
public enum ResultShape {
    /// The result of `SecItemAdd` for the item it created.
    static func added(_ item: KeychainItem, query: ParsedQuery, platform: Platform) -> SecValue? {
        guard query.returnsAnything else { return nil }
        if isOnly(\.returnData, query) { return .data(item.data ?? Data()) }
        return single(item, query: query, platform: platform)
    }

    /// The result of `SecItemCopyMatching`: a single value for limit one, else an array.
    public static func found(_ items: [KeychainItem], query: ParsedQuery, limit: ParsedQuery.MatchLimit, platform: Platform) -> SecValue? {
        guard query.returnsAnything else { return nil }
        guard limit.returnsArray else {
            return items.first.flatMap { single($0, query: query, platform: platform) }
        }
        return .array(items.compactMap { single($0, query: query, platform: platform) })
    }

    /// One item's result; `nil` where Apple gives nothing (a password's ref on iOS, missing data).
    static func single(_ item: KeychainItem, query: ParsedQuery, platform: Platform) -> SecValue? {
        if isOnly(\.returnData, query) {
            return item.data.map(SecValue.data)
        }
        if isOnly(\.returnPersistentRef, query) {
            return .data(item.persistentRef)
        }
        if isOnly(\.returnRef, query) {
            return reference(item, platform: platform)
        }
        var dictionary = attributes(of: item)
        if query.returnData {
            if let data = item.data { dictionary["v_Data"] = .data(data) }
            for code in item.itemClass.schema.dataFields {
                dictionary[code] = item.attributes[code]
            }
            dictionary["sha1"] = .data(digest(of: item))
        }
        if query.returnPersistentRef {
            dictionary["v_PersistentRef"] = .data(item.persistentRef)
        }
        if query.returnRef {
            dictionary["class"] = .string(item.itemClass.rawValue)
            if let reference = reference(item, platform: platform) { dictionary["v_Ref"] = reference }
        }
        return .dictionary(dictionary)
    }

    /// The attributes a result dictionary carries: every stored attribute with a value, but the
    /// extra data fields, which come only with the data.
    static func attributes(of item: KeychainItem) -> [String: SecValue] {
        if FileKeychain.holds(item) {
            return FileKeychain.visibleAttributes(item.attributes).filter { !item.itemClass.schema.dataFields.contains($0.key) }
        }
        let fields = item.itemClass.schema.dataFields
        // Most classes have none: their attributes go out as stored, without a copy.
        return fields.isEmpty ? item.attributes : item.attributes.filter { !fields.contains($0.key) }
    }

    /// `kSecAttrSHA1`, which comes with the data (spec keychain.md §2.4): securityd's digest of
    /// the item's attributes and data. Ours is the SHA-1 of their SecValueBinary form, so it is
    /// 20 bytes, the same for the same item and different once anything changes; it cannot be
    /// byte-for-byte Apple's, whose input is its own DER encoding.
    static func digest(of item: KeychainItem) -> Data {
        var contents = item.attributes
        contents["v_Data"] = .data(item.data ?? Data())
        return Data(Insecure.SHA1.hash(data: SecValueBinary.encode(.dictionary(contents))))
    }

    /// A reference object stands for the item in the calling process, as a tagged dictionary
    /// (`$ref`: the class, and the persistent reference) that the Security module turns into an
    /// object. Passwords have none on iOS (ATEST `testGenpReturnRef`); macOS gives a
    /// `SecKeychainItemRef` for them on the data-protection keychain too (spec keychain.md §5).
    static func reference(_ item: KeychainItem, platform: Platform) -> SecValue? {
        let isPassword = item.itemClass == .genericPassword || item.itemClass == .internetPassword
        if isPassword && platform == .ios { return nil }
        return .dictionary(["$ref": .string(item.itemClass.rawValue), "v_PersistentRef": .data(item.persistentRef)])
    }

    private static func isOnly(_ flag: KeyPath<ParsedQuery, Bool>, _ query: ParsedQuery) -> Bool {
        let flags = [\ParsedQuery.returnData, \.returnAttributes, \.returnRef, \.returnPersistentRef]
        return query[keyPath: flag] && flags.filter { query[keyPath: $0] }.count == 1
    }
}
