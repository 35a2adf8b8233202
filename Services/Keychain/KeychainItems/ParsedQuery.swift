public import Foundation
public import KeychainTypes

/// A SecItem dictionary after the grammar checks of spec keychain.md §2.2.
public struct ParsedQuery: Hashable, Sendable {
    /// How many items a search returns.
    public enum MatchLimit: Hashable, Sendable {
        case count(Int)
        case all

        /// Whether results come back as an array.
        public var returnsArray: Bool {
            if case .count(1) = self { return false }
            return true
        }

        /// The maximum, `nil` for all.
        public var maximum: Int? {
            if case .count(let count) = self { return count }
            return nil
        }
    }

    /// Which sync states a query covers.
    public enum Synchronizable: Hashable, Sendable {
        /// Not specified: only items with `sync = 0` (the implicit condition).
        case unspecified
        /// `kSecAttrSynchronizable` given with this value.
        case only(Bool)
        /// `kSecAttrSynchronizableAny`: both.
        case any
    }

    /// The item class.
    public var itemClass: ItemClass
    /// Attribute values, converted to their kinds; excludes `sync` (see ``synchronizable``).
    public var attributes: [String: SecValue] = [:]
    /// Which sync states are named.
    public var synchronizable: Synchronizable = .unspecified
    /// `kSecMatchLimit`; `nil` when absent.
    public var matchLimit: MatchLimit?
    /// Every `kSecMatch…` key given, `m_Limit` included.
    public var matchKeys: [String: SecValue] = [:]
    /// `kSecReturnData`.
    public var returnData = false
    /// `kSecReturnAttributes`.
    public var returnAttributes = false
    /// `kSecReturnRef`.
    public var returnRef = false
    /// `kSecReturnPersistentRef`.
    public var returnPersistentRef = false
    /// `kSecUse…` keys given.
    public var useKeys: [String: SecValue] = [:]
    /// `kSecValueData`.
    public var valueData: Data?
    /// Whether `kSecValueRef` was given.
    public var hasValueRef = false
    /// `kSecValuePersistentRef`, raw.
    public var persistentRef: Data?

    /// A query of `itemClass` with nothing else.
    public init(itemClass: ItemClass) {
        self.itemClass = itemClass
    }

    /// The explicit access group, if one was named.
    public var accessGroup: String? {
        attributes["agrp"]?.string
    }

    /// Whether any `kSecReturn…` key is true.
    public var returnsAnything: Bool {
        returnData || returnAttributes || returnRef || returnPersistentRef
    }
}

extension ParsedQuery {
    /// The query with only the attributes `itemClass` has: an identity's changes, applied to its
    /// certificate or to its key.
    func restricted(to itemClass: ItemClass) -> ParsedQuery {
        var copy = self
        copy.attributes = attributes.filter { itemClass.schema[$0.key] != nil }
        return copy
    }
}
