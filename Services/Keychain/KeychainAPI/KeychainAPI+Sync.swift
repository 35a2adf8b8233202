public import Foundation
public import KeychainItems
public import KeychainTypes

extension KeychainAPI {
    /// An item as it travels between keychaind and its device's sync engine: the device's own
    /// items, over the device's mutual-TLS connection (docs/icloud-keychain.md).
    public struct SyncedItem: Codable, Hashable, Sendable {
        public var uuid: UUID
        public var itemClass: ItemClass
        public var attributes: [String: SecValue]
        public var data: Data?

        public init(_ item: KeychainItem) {
            uuid = item.uuid
            itemClass = item.itemClass
            attributes = item.attributes
            data = item.data
        }

        /// The item, in no keychain yet (keychaind puts it in the caller's).
        public var item: KeychainItem {
            KeychainItem(keychain: "", itemClass: itemClass, uuid: uuid, attributes: attributes, data: data)
        }
    }

    /// `GET /v1/sync/changes?after=N`: the device's changes of synchronizable items it has not
    /// taken, oldest first; `DELETE /v1/sync/changes?through=N` says it took them.
    public struct SyncChanges: Codable, Hashable, Sendable {
        public struct Change: Codable, Hashable, Sendable {
            public var sequence: Int64
            /// The item now (its tombstone, or its local self, when `deleted`).
            public var item: SyncedItem
            /// Whether the item left the cloud: deleted, or no longer synchronizable.
            public var deleted: Bool

            public init(sequence: Int64, item: SyncedItem, deleted: Bool) {
                self.sequence = sequence
                self.item = item
                self.deleted = deleted
            }
        }

        public var changes: [Change]

        public init(changes: [Change]) {
            self.changes = changes
        }
    }

    /// `POST /v1/sync/apply`: the cloud's copies for the device's keychain, written by UUID as
    /// synchronizable items, and the items the cloud deleted; nothing of it is queued again.
    /// `deleteGroups` removes every synchronizable item of those groups, without tombstones
    /// (iCloud Keychain turned off with "Delete from this device").
    public struct SyncApply: Codable, Hashable, Sendable {
        public var writes: [SyncedItem]
        public var deletes: [UUID]
        public var deleteGroups: [String]?

        public init(writes: [SyncedItem] = [], deletes: [UUID] = [], deleteGroups: [String]? = nil) {
            self.writes = writes
            self.deletes = deletes
            self.deleteGroups = deleteGroups
        }
    }
}
