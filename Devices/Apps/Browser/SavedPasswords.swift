import Foundation
import Security

/// The browser's saved website passwords: internet passwords in `com.apple.cfnetwork`, HTML-form
/// authentication, synchronizable (they follow the iCloud account), exactly where shared web
/// credentials read and write them.
enum SavedPasswords {
    struct Entry {
        let host: String
        let account: String
        let password: String
        let comment: String?
    }

    /// Safari's marker for "never save a password for this site".
    static let neverSavedAccount = "Passwords not saved"

    static func base(host: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrAccessGroup as String: "com.apple.cfnetwork",
            kSecAttrServer as String: host,
            kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTMLForm,
            kSecAttrSynchronizable as String: kCFBooleanTrue!,
        ]
    }

    /// The saved passwords for `host` (every host when nil), markers included.
    static func list(host: String?, account: String? = nil) -> (OSStatus, [Entry]) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrAccessGroup as String: "com.apple.cfnetwork",
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecReturnAttributes as String: kCFBooleanTrue!,
            kSecReturnData as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        if let host { query[kSecAttrServer as String] = host }
        if let account { query[kSecAttrAccount as String] = account }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { return (status, []) }
        let entries = items.compactMap { item -> Entry? in
            guard let host = item[kSecAttrServer as String] as? String, let account = item[kSecAttrAccount as String] as? String else { return nil }
            let password = (item[kSecValueData as String] as? Data).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return Entry(host: host, account: account, password: password, comment: item[kSecAttrComment as String] as? String)
        }
        return (status, entries.sorted { ($0.host, $0.account) < ($1.host, $1.account) })
    }

    /// Saves or replaces the password of `account` at `host`.
    static func save(host: String, account: String, password: String) -> OSStatus {
        var query = base(host: host)
        query[kSecAttrAccount as String] = account
        let changes: [String: Any] = [kSecValueData as String: Data(password.utf8)]
        let updated = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        guard updated == errSecItemNotFound else { return updated }
        query[kSecAttrProtocol as String] = kSecAttrProtocolHTTPS
        query[kSecAttrLabel as String] = "\(host) (\(account))"
        query[kSecValueData as String] = Data(password.utf8)
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// Forgets the password of `account` at `host`.
    static func remove(host: String, account: String) -> OSStatus {
        var query = base(host: host)
        query[kSecAttrAccount as String] = account
        return SecItemDelete(query as CFDictionary)
    }
}
