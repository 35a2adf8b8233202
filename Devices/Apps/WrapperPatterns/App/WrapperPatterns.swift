import Foundation
import MiniKeychainWrapper
import Security

// wrapper-patterns: run with `kclab app exec` as a development app. It uses a wrapper type named
// `Keychain` beside `import Security` (which must not export one), and prints one JSON line of
// what it saw, for WrapperPatternTests to judge per platform.

let keychain = Keychain(service: "com.example.wrapper-patterns")
let stored = ["alice": "one", "bob": "two"].map { keychain.set($0.value, forKey: $0.key) }
let updated = keychain.set("three", forKey: "bob")
let attributes = keychain.allAttributes()
let stringKeyed = attributes.compactMap { ($0 as? [String: Any])?[kSecAttrAccount as String] as? Data }
let bob = keychain.get("bob")
let allKeys = keychain.allKeys().sorted()
let removeAll = keychain.removeAll()

let report: [String: Any] = [
    "cfStringKeyEqualsString": AnyHashable(kSecAttrAccount) == AnyHashable("acct"),
    "stored": stored.map(Int.init),
    "updated": Int(updated),
    "bob": bob ?? NSNull(),
    "allKeys": allKeys,
    "stringKeyedAccounts": stringKeyed.map { String(decoding: $0, as: UTF8.self) }.sorted(),
    "groups": attributes.compactMap { $0[kSecAttrAccessGroup] as? String },
    "removeAll": Int(removeAll),
    "remainingKeys": keychain.allKeys().sorted(),
]
let line = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: line, as: UTF8.self))
