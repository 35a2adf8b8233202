import Foundation
import KeychainLabSecurity
import Testing

/// CFString constants hash and compare as the strings they bridge to, as on Darwin, so results read
/// as `[AnyHashable: Any]` or `[String: Any]` can be looked up with the constants or with literals.
struct StringBridgingTests {
    @Test func aConstantIsTheStringItNames() {
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable("genp"))
        #expect(kSecAttrProtocolFTP == "ftp ")
    }

    @Test func aDictionaryFromFoundationIsFoundByConstant() throws {
        let bridged: NSDictionary = ["acct": Data("alice".utf8), "agrp": "ABCDE12345.shared"] as [String: Any] as NSDictionary
        let anyKeyed = try #require(bridged as? [AnyHashable: Any])
        #expect(anyKeyed[kSecAttrAccount] as? Data == Data("alice".utf8))
        #expect(anyKeyed[kSecAttrAccessGroup] as? String == "ABCDE12345.shared")
        let stringKeyed = try #require(bridged as? [String: Any])
        #expect(stringKeyed[kSecAttrAccessGroup] as? String == "ABCDE12345.shared")
    }

    @Test func accessControlTakesAConstantOrACFTypeRef() {
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil) != nil)
        #expect(SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleAfterFirstUnlock as CFTypeRef, [], nil) != nil)
        #expect(SecAccessControlCreateWithFlags(nil, "nonsense" as CFString, [], nil) == nil)
    }
}
