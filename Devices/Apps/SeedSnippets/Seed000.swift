import Foundation
import Security

/// Seed 000's add and query, as Apple's article prints them, compiled unchanged. The article's
/// `accessGroup` lost its team-ID prefix on the way to the page (".com.example.SharedItems"), so
/// on a device the add fails with errSecMissingEntitlement: the lesson seed 001 explains.
public enum Seed000 {
    public static func run(service: String, username: String, password: Data) -> (addStatus: OSStatus, readStatus: OSStatus) {
        let accessGroup = ".com.example.SharedItems"
        let attributes =
            [
                kSecClass: kSecClassGenericPassword,
                kSecAttrService: service,
                kSecAttrAccount: username,
                kSecAttrAccessGroup: accessGroup,
                kSecValueData: password,
            ] as [String: Any]
        let addStatus = SecItemAdd(attributes as CFDictionary, nil)

        let query =
            [
                kSecClass: kSecClassGenericPassword,
                kSecAttrService: service,
                kSecAttrAccount: username,
                kSecReturnAttributes: true,
                kSecAttrAccessGroup: accessGroup,
                kSecReturnData: true,
            ] as [String: Any]
        var item: CFTypeRef?
        let readStatus = SecItemCopyMatching(query as CFDictionary, &item)
        return (addStatus, readStatus)
    }
}
