import Foundation
import KeychainLabSecurity
import KeychainTypes
import Testing

/// `kSecAttrAccessControl` in a result's attributes is a `SecAccessControl`, as Apple returns it,
/// in a single result and in each of an array's, so that `as! SecAccessControl` holds (Valet's
/// Secure Enclave tests cast it so) and an object compares equal to the one the item was added with.
@Suite struct AccessControlResultTests {
    /// An item's attributes as keychaind sends them.
    static let attributes: SecValue = .dictionary([
        "acct": .string("alice"),
        "pdmn": .string("akpu"),
        "accc": .dictionary(["prot": .string("akpu"), "flags": .integer(1)]),
    ])

    @Test func aSingleResultHoldsAnAccessControlObject() throws {
        let result = try #require(CFBridging.object(Self.attributes) as? NSDictionary)
        let attributes = try #require(result as? [String: Any])
        let control = try #require(attributes[kSecAttrAccessControl as String] as? SecAccessControl)
        #expect(control.protection == "akpu")
        #expect(control.flags == .userPresence)
        #expect(attributes[kSecAttrAccount as String] as? String == "alice")
    }

    @Test func eachResultOfAnArrayHoldsOne() throws {
        let results = try #require(CFBridging.object(.array([Self.attributes, Self.attributes])) as? NSArray)
        #expect(results.count == 2)
        for result in results {
            let attributes = try #require(result as? NSDictionary)
            #expect(attributes["accc"] is SecAccessControl, "\(attributes)")
        }
    }

    @Test func theObjectAddedIsTheObjectReturned() throws {
        let added = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.biometryCurrentSet, .or, .devicePasscode], nil)
        )
        let sent = try #require(CFBridging.value(added))
        let result = try #require(CFBridging.object(.dictionary(["accc": sent])) as? [String: Any])
        let returned = try #require(result["accc"] as? SecAccessControl)
        #expect(returned == added)
        #expect(returned.hash == added.hash)
        #expect(returned != SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.devicePasscode], nil))
    }

    /// A dictionary under another key, or an `accc` that is no access control, stays a dictionary.
    @Test func otherDictionariesStayDictionaries() throws {
        let value: SecValue = .dictionary(["gena": .dictionary(["prot": .string("ak")]), "accc": .dictionary(["other": .integer(1)])])
        let result = try #require(CFBridging.object(value) as? NSDictionary)
        #expect(result["gena"] is NSDictionary)
        #expect(result["accc"] is NSDictionary)
        #expect(!(result["accc"] is SecAccessControl))
    }
}
