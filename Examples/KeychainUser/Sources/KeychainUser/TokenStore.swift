import Foundation
import Security

/// Keeps tokens in the keychain as generic passwords of one service, in one access group (or the
/// app's default group): the kind of code whose tests need a real keychain, and get -34018 on a
/// machine that has none for them.
public struct TokenStore: Sendable {
    /// A call that did not succeed, with its OSStatus.
    public struct Failure: Error, Equatable {
        public let status: OSStatus

        public init(status: OSStatus) {
            self.status = status
        }
    }

    public let service: String
    public let accessGroup: String?

    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// Saves `token` for `account`, replacing what was there.
    public func save(_ token: String, account: String) throws(Failure) {
        var attributes = query(account)
        attributes[kSecValueData as String] = Data(token.utf8)
        var status = SecItemAdd(attributes as CFDictionary, nil)
        if status == errSecDuplicateItem {
            let changes = [kSecValueData as String: Data(token.utf8)]
            status = SecItemUpdate(query(account) as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else { throw Failure(status: status) }
    }

    /// The token saved for `account`, or nil when there is none.
    public func read(account: String) throws(Failure) -> String? {
        var search = query(account)
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Failure(status: status) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Removes the token of `account`, if there is one.
    public func delete(account: String) throws(Failure) {
        let status = SecItemDelete(query(account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    private func query(_ account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }
}
