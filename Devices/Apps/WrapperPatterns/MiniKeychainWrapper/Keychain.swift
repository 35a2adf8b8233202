import Foundation
public import Security

/// A keychain wrapper written the way the popular open-source ones are, against `import Security`
/// only: its type is named `Keychain` as KeychainAccess's is, it stores accounts as `Data` and lists
/// them from `[[AnyHashable: Any]]` results looked up with `kSecAttrAccount` as SwiftKeychainWrapper
/// does, it builds `[String: Any]` queries as keychain-swift does, and on any platform but iOS it
/// deletes with `kSecMatchLimitAll` as KeychainAccess and Valet do. A test fixture: that it compiles
/// beside `import Security` and behaves on a device is what `WrapperPatternTests` checks.
public struct Keychain {
    /// The service (`kSecAttrService`).
    public let service: String

    public init(service: String) {
        self.service = service
    }

    /// Stores `value` for `key`, updating the item if it exists (SwiftKeychainWrapper's fallback).
    public func set(_ value: String, forKey key: String) -> OSStatus {
        var query = itemQuery(key)
        query[kSecValueData as String] = Data(value.utf8)
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecDuplicateItem else { return status }
        let changes: [String: Any] = [kSecValueData as String: Data(value.utf8)]
        return SecItemUpdate(itemQuery(key) as CFDictionary, changes as CFDictionary)
    }

    /// The text stored for `key` (keychain-swift's `get`).
    public func get(_ key: String) -> String? {
        var query = itemQuery(key)
        query[kSecReturnData as String] = kCFBooleanTrue!
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == noErr, let data = result as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Every key of the service, read as SwiftKeychainWrapper's `allKeys` reads them.
    public func allKeys() -> Set<String> {
        var keys = Set<String>()
        for attributes in allAttributes() {
            if let account = attributes[kSecAttrAccount] as? Data, let key = String(data: account, encoding: .utf8) {
                keys.insert(key)
            }
        }
        return keys
    }

    /// The attributes of every item of the service, keyed as results are cast on Apple platforms.
    public func allAttributes() -> [[AnyHashable: Any]] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return [] }
        return result as? [[AnyHashable: Any]] ?? []
    }

    /// Deletes every item of the service: KeychainAccess's `removeAll`, which adds
    /// `kSecMatchLimitAll` on every platform but iOS (and Linux is not iOS).
    public func removeAll() -> OSStatus {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        #if !os(iOS)
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        #endif
        return SecItemDelete(query as CFDictionary)
    }

    private func itemQuery(_ key: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: Data(key.utf8),
        ]
    }
}
