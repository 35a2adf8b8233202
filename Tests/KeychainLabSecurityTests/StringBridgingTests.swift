import Foundation
import KeychainLabSecurity
import Testing

/// CFString constants hash and compare inside AnyHashable as the strings they bridge to, as on
/// Darwin, so results read as `[AnyHashable: Any]` are found by the constants and by literals.
struct StringBridgingTests {
    @Test func aConstantIsTheStringItNames() {
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable("genp"))
        #expect(Set<AnyHashable>([kSecAttrService, "svce"]).count == 1)
        let keyedByConstant: [AnyHashable: Any] = [kSecAttrLabel: "label"]
        #expect(keyedByConstant["labl"] as? String == "label")
    }

    @Test func aDictionaryFromFoundationIsFoundByConstant() throws {
        let bridged: NSDictionary = ["acct": Data("alice".utf8), "agrp": "ABCDE12345.shared"] as [String: Any] as NSDictionary
        let anyKeyed = try #require(bridged as? [AnyHashable: Any])
        #expect(anyKeyed[kSecAttrAccount] as? Data == Data("alice".utf8))
        #expect(anyKeyed[kSecAttrAccessGroup] as? String == "ABCDE12345.shared")
        let stringKeyed = try #require(bridged as? [String: Any])
        #expect(stringKeyed[kSecAttrAccessGroup as String] as? String == "ABCDE12345.shared")
    }

    /// CFString stays a class: wrappers pass the constants where `AnyObject` is expected
    /// (SwiftKeychainWrapper's `deleteKeychainSecClass(kSecClassGenericPassword)`).
    @Test func aConstantIsStillAnObject() {
        let object: AnyObject = kSecClassGenericPassword
        #expect(object as? String == "genp")
    }

    @Test func accessControlTakesAConstantOrACFTypeRef() {
        #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil) != nil)
        #expect(SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleAfterFirstUnlock as CFTypeRef, [], nil) != nil)
        #expect(SecAccessControlCreateWithFlags(nil, "nonsense" as CFString, [], nil) == nil)
    }
}
