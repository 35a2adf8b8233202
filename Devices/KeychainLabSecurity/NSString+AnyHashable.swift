public import Foundation

// On Darwin an NSString (and so every CFString constant) inside an AnyHashable hashes and compares
// as the String it bridges to: `AnyHashable(kSecAttrAccount) == AnyHashable("acct")`, and a result
// read as `[AnyHashable: Any]` is found by `kSecAttrAccount` (SwiftKeychainWrapper's `allKeys`
// relies on it). swift-corelibs-foundation keeps the NSString as it is, so such lookups miss. Every
// app imports this module, so the process gets Darwin's rule: the standard library asks a type for
// its AnyHashable form through this protocol, as Darwin's Foundation answers it for NSString.
// CFString stays NSString, so `kSecClassGenericPassword` still passes where `AnyObject` is expected.

extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The String this NSString bridges to, as the key it stands for.
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String(describing: self))
    }
}
