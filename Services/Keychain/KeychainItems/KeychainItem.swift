public import Foundation
public import KeychainTypes

/// A stored keychain item: its class, attributes, secret data and identity.
public struct KeychainItem: Hashable, Sendable {
    /// The keychain the item lives in: its device's, or for a synchronizable item its iCloud account's.
    public var keychain: String
    /// The class.
    public var itemClass: ItemClass
    /// The per-item UUID that persistent references carry.
    public var uuid: UUID
    /// Every stored attribute by code, including `agrp`, `pdmn`, `sync`, `cdat`, `mdat` and the
    /// primary-key attributes (defaulted when the add omitted them).
    public var attributes: [String: SecValue]
    /// The secret (`kSecValueData`), if any; `nil` when not loaded or absent.
    public var data: Data?
    /// A deleted synchronizable item kept so the deletion can reach the account's other devices.
    public var isTombstone: Bool

    /// An item from its parts.
    public init(
        keychain: String,
        itemClass: ItemClass,
        uuid: UUID = .timeOrdered(),
        attributes: [String: SecValue],
        data: Data?,
        isTombstone: Bool = false
    ) {
        self.keychain = keychain
        self.itemClass = itemClass
        self.uuid = uuid
        self.attributes = attributes
        self.data = data
        self.isTombstone = isTombstone
    }

    /// The access group.
    public var accessGroup: String {
        attributes["agrp"]?.string ?? ""
    }

    /// Whether the item is synchronizable.
    public var isSynchronizable: Bool {
        attributes["sync"]?.number == 1
    }

    /// The protection class.
    public var accessibility: Accessibility {
        attributes["pdmn"]?.string.flatMap(Accessibility.init(rawValue:)) ?? .whenUnlocked
    }

    /// The values of the class's primary-key attributes, in schema order.
    public var primaryKey: [SecValue] {
        itemClass.schema.primaryKey.map { attributes[$0.code] ?? $0.defaultValue ?? .string("") }
    }

    /// The 20-byte persistent reference: the class code and the UUID (spec §2.4).
    public var persistentRef: Data {
        PersistentRef(itemClass: itemClass, uuid: uuid).data
    }
}

/// `kSecValuePersistentRef`: 4 bytes of class code, then the item's 16-byte UUID.
public struct PersistentRef: Hashable, Sendable {
    public let itemClass: ItemClass
    public let uuid: UUID

    public init(itemClass: ItemClass, uuid: UUID) {
        self.itemClass = itemClass
        self.uuid = uuid
    }

    /// Parses the 20-byte form; the 12-byte legacy row-ID form and token references are not ours.
    public init?(_ data: Data) {
        guard data.count == 20, let code = String(data: data.prefix(4), encoding: .utf8), let itemClass = ItemClass(rawValue: code) else {
            return nil
        }
        let bytes = Array(data.suffix(16))
        self.itemClass = itemClass
        self.uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    /// The 20 bytes.
    public var data: Data {
        var bytes = Data(itemClass.rawValue.utf8)
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
