import AppIdentifiers
import DeviceProtocol
public import Foundation
import KeychainLabSecurity

/// The keychain, as a Swift value: generic passwords of one service, optionally in one access
/// group, configured fluently and never mutated:
///
/// ```swift
/// let shared = Keychain(service: "com.example.token")
///     .accessGroup(try .keychainGroup(prefix: "ABCDE12345", name: "com.example.SharedItems"))
///     .accessibility(.afterFirstUnlock)
/// try shared.set("s3cret", for: "alice")
/// let token = try shared.string(for: "alice")
/// ```
///
/// With no access group, writes go to the app's default group (`Keychain.defaultAccessGroup`) and
/// reads search every group the app belongs to, as on Apple platforms.
public struct Keychain: Sendable {
    /// The service (`kSecAttrService`).
    public let service: String
    /// The access group, if one is named.
    public let group: AccessGroupIdentifier?
    /// The protection of items written.
    public let protection: KeychainAccessibility
    /// Whether items are synchronizable (follow the iCloud account).
    public let isSynchronizable: Bool

    /// The keychain of `service`.
    public init(service: String, accessGroup: AccessGroupIdentifier? = nil) {
        self.init(service: service, group: accessGroup, protection: .whenUnlocked, isSynchronizable: false)
    }

    private init(service: String, group: AccessGroupIdentifier?, protection: KeychainAccessibility, isSynchronizable: Bool) {
        self.service = service
        self.group = group
        self.protection = protection
        self.isSynchronizable = isSynchronizable
    }

    /// The same keychain in `group`.
    public func accessGroup(_ group: AccessGroupIdentifier?) -> Keychain {
        Keychain(service: service, group: group, protection: protection, isSynchronizable: isSynchronizable)
    }

    /// The same keychain writing items with `protection`.
    public func accessibility(_ protection: KeychainAccessibility) -> Keychain {
        Keychain(service: service, group: group, protection: protection, isSynchronizable: isSynchronizable)
    }

    /// The same keychain for synchronizable (or local) items.
    public func synchronizable(_ flag: Bool) -> Keychain {
        Keychain(service: service, group: group, protection: protection, isSynchronizable: flag)
    }

    // MARK: Items

    /// Stores `data` for `account`, replacing what was there.
    public func set(_ data: Data, for account: String) throws(KeychainError) {
        var attributes = query(account)
        attributes[kSecValueData as String] = data
        attributes[kSecAttrAccessible as String] = protection.rawValue
        let status = SecItemAdd(attributes as NSDictionary, nil)
        if status == errSecDuplicateItem {
            try check(SecItemUpdate(query(account) as NSDictionary, [kSecValueData as String: data] as NSDictionary))
        } else {
            try check(status)
        }
    }

    /// Stores text for `account`.
    public func set(_ text: String, for account: String) throws(KeychainError) {
        try set(Data(text.utf8), for: account)
    }

    /// Stores a `Codable` value for `account`, as JSON.
    public func set(_ value: some Encodable, for account: String) throws {
        try set(JSONEncoder().encode(value), for: account)
    }

    /// The data stored for `account`, or `nil`.
    public func data(for account: String) throws(KeychainError) -> Data? {
        var search = query(account)
        search[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as NSDictionary, &result)
        if status == errSecItemNotFound { return nil }
        try check(status)
        return result as? Data
    }

    /// The text stored for `account`, or `nil`.
    public func string(for account: String) throws(KeychainError) -> String? {
        try data(for: account).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The `Codable` value stored for `account`, or `nil`.
    public func value<T: Decodable>(_ type: T.Type, for account: String) throws -> T? {
        try data(for: account).map { try JSONDecoder().decode(type, from: $0) }
    }

    /// Removes the item of `account`; removing nothing is not an error.
    public func remove(_ account: String) throws(KeychainError) {
        let status = SecItemDelete(query(account) as NSDictionary)
        if status != errSecItemNotFound { try check(status) }
    }

    /// Removes every item of the service.
    public func removeAll() throws(KeychainError) {
        let status = SecItemDelete(query(nil) as NSDictionary)
        if status != errSecItemNotFound { try check(status) }
    }

    /// Every account of the service, in the group or in all the app's groups.
    public func allAccounts() throws(KeychainError) -> [String] {
        var search = query(nil)
        search[kSecReturnAttributes as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as NSDictionary, &result)
        if status == errSecItemNotFound { return [] }
        try check(status)
        let items = (result as? [Any]) ?? []
        return items.compactMap { ($0 as? [String: Any])?[kSecAttrAccount as String] as? String }
    }

    private func query(_ account: String?) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        if let account { query[kSecAttrAccount as String] = account }
        if let group { query[kSecAttrAccessGroup as String] = group.rawValue }
        if isSynchronizable { query[kSecAttrSynchronizable as String] = true }
        return query
    }

    private func check(_ status: OSStatus) throws(KeychainError) {
        guard status == errSecSuccess else {
            throw status == errSecMissingEntitlement ? .missingEntitlement(group: group?.rawValue) : KeychainError(status: status)
        }
    }

    // MARK: Discovery

    /// The app's access groups in the order the system forms them (keychain-access-groups, the app
    /// ID, app groups), from its verified signature: no probe item needed.
    public static var entitledAccessGroups: [String] {
        DeviceConnection.shared.send(DeviceRequest(.info)).app?.accessGroups.map(\.rawValue) ?? []
    }

    /// The group `SecItemAdd` uses when none is named: the first entitled group.
    public static var defaultAccessGroup: String? {
        entitledAccessGroups.first
    }

    /// Whether the app may use `group`.
    public static func canAccess(_ group: AccessGroupIdentifier) -> Bool {
        entitledAccessGroups.contains(group.rawValue)
    }
}
