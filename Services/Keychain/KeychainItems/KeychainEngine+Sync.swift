public import Foundation
import KeychainTypes

/// One change of a synchronizable item as its device's sync engine takes it: the item as it is
/// now (with its secret), or, when it was deleted or made local, what is left of it.
public struct SyncFeedChange: Hashable, Sendable {
    public let sequence: Int64
    /// The item now; for a delete its tombstone (primary key, protection, dates) or, when it was
    /// made local, the local item (whose group still names its view).
    public let item: KeychainItem
    /// Whether the item left the cloud: deleted, or no longer synchronizable.
    public let deleted: Bool
}

/// What keychaind does for a device's sync engine (docs/icloud-keychain.md): hands it the
/// device's queued changes, and writes the cloud's copies without queueing new ones.
extension KeychainEngine {
    /// The changes of `keychain`'s synchronizable items queued after `sequence`, oldest first.
    /// A change whose item has since gone without a trace (the cloud's delete) is skipped.
    public func syncFeed(keychain: String, after sequence: Int64, limit: Int) async throws -> [SyncFeedChange] {
        try await store.read { reader in
            try reader.syncChanges(keychain: keychain, after: sequence, limit: limit).compactMap { change in
                let filter = ItemFilter(
                    keychains: [keychain],
                    itemClass: change.itemClass,
                    uuid: change.uuid,
                    includeTombstones: true,
                    limit: 1,
                    loadData: true
                )
                guard let item = try reader.items(matching: filter).first else { return nil }
                let live = item.isSynchronizable && !item.isTombstone
                return SyncFeedChange(sequence: change.sequence, item: item, deleted: !live)
            }
        }
    }

    /// Queues a change for every synchronizable item of `keychain` (not its tombstones), as
    /// CKKS's scan of local items finds them when a view starts afresh
    /// (`CKKSScanLocalItemsOperation`): the device's engine uploads those its account lacks.
    /// Returns how many were queued.
    public func queueEverySynced(keychain: String) async throws -> Int {
        try await store.write { writer in
            var queued = 0
            for itemClass in ItemClass.allCases {
                for item in try writer.items(matching: ItemFilter(keychains: [keychain], itemClass: itemClass, synchronizable: true)) {
                    try writer.queueSyncChange(item)
                    queued += 1
                }
            }
            return queued
        }
    }

    /// The device has taken `keychain`'s changes up to `sequence`.
    public func forgetSyncChanges(keychain: String, through sequence: Int64) async throws {
        try await store.forgetSyncChanges(keychain: keychain, through: sequence)
    }

    /// Writes the cloud's copies into `keychain` as synchronizable items, by UUID, and deletes
    /// the items `deletes` names, and every synchronizable item of `deleteGroups`, leaving no
    /// tombstone; nothing is queued, so the cloud's changes do not echo back, and a device that
    /// turns iCloud Keychain off deleting its copies deletes no one else's. The cloud's copy wins
    /// over a local item with its primary key.
    public func applyFromCloud(keychain: String, writes: [KeychainItem], deletes: [UUID], deleteGroups: [String] = []) async throws {
        try await store.write { writer in
            if !deleteGroups.isEmpty {
                for itemClass in ItemClass.allCases {
                    let filter = ItemFilter(
                        keychains: [keychain],
                        itemClass: itemClass,
                        accessGroups: deleteGroups,
                        synchronizable: true,
                        includeTombstones: true
                    )
                    for item in try writer.items(matching: filter) { try writer.remove(item) }
                }
            }
            for uuid in deletes {
                for itemClass in ItemClass.allCases {
                    let filter = ItemFilter(keychains: [keychain], itemClass: itemClass, uuid: uuid, includeTombstones: true)
                    for item in try writer.items(matching: filter) { try writer.remove(item) }
                }
            }
            for var item in writes {
                item.keychain = keychain
                item.isTombstone = false
                item.attributes["sync"] = .integer(1)
                let byUUID = ItemFilter(keychains: [keychain], itemClass: item.itemClass, uuid: item.uuid, includeTombstones: true)
                let existing = try writer.items(matching: byUUID).first
                var sameKey = ItemFilter(keychains: [keychain], itemClass: item.itemClass, synchronizable: true)
                for spec in item.itemClass.schema.primaryKey {
                    sameKey.attributes[spec.code] = item.attributes[spec.code] ?? spec.defaultValue
                }
                for other in try writer.items(matching: sameKey) where other.uuid != item.uuid {
                    try writer.remove(other)
                }
                if let existing {
                    try writer.replace(existing, with: item)
                } else {
                    try writer.insert(item)
                }
            }
        }
    }
}
