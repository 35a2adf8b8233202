public import Foundation

/// A keychain item reference (`SecKeychainItemRef`): what a Mac returns for `kSecReturnRef` on a
/// password, from either keychain (iOS returns none). It names the item by its persistent
/// reference; it can be passed back as `kSecValueRef`.
public final class SecKeychainItem: NSObject {
    /// The item's class (`genp`, `inet`).
    let itemClass: String
    /// The item's persistent reference.
    let persistentRef: Data

    init(itemClass: String, persistentRef: Data) {
        self.itemClass = itemClass
        self.persistentRef = persistentRef
    }

    public override var description: String {
        "<SecKeychainItem \(itemClass)>"
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? SecKeychainItem)?.persistentRef == persistentRef
    }

    public override var hash: Int { persistentRef.hashValue }
}

/// Apple's name for a reference to a ``SecKeychainItem``.
public typealias SecKeychainItemRef = SecKeychainItem
