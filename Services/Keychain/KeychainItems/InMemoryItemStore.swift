import Foundation
import KeychainTypes
import LabErrors
import Synchronization

/// An item store in memory, for tests of the engine: the same rules as the SQLite store, no disk.
public final class InMemoryItemStore: ItemStore {
    private let items = Mutex<[KeychainItem]>([])
    /// Queued sync changes by keychain, with the last sequence number given.
    private let changes = Mutex<(queued: [String: [QueuedSyncChange]], last: Int64)>(([:], 0))

    /// An empty store.
    public init() {}

    public func read<T: Sendable>(_ body: @Sendable (any ItemReading) throws -> T) async throws -> T {
        let snapshot = items.withLock { $0 }
        return try body(Transaction(items: snapshot, changes: changes.withLock { $0 }))
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ItemWriting) throws -> T) async throws -> T {
        try items.withLock { stored in
            try changes.withLock { queued in
                let transaction = Transaction(items: stored, changes: queued)
                let result = try body(transaction)
                stored = transaction.items
                queued = transaction.changes
                return result
            }
        }
    }

    public func forgetSyncChanges(keychain: String, through sequence: Int64) async throws {
        changes.withLock { $0.queued[keychain]?.removeAll { $0.sequence <= sequence } }
    }

    public func eraseAll() async throws -> Int {
        items.withLock { stored in
            defer { stored.removeAll() }
            return stored.count { !$0.isTombstone }
        }
    }

    /// One transaction's copy of the items; kept only when the body returns.
    private final class Transaction: ItemWriting {
        var items: [KeychainItem]
        var changes: (queued: [String: [QueuedSyncChange]], last: Int64)

        init(items: [KeychainItem], changes: (queued: [String: [QueuedSyncChange]], last: Int64)) {
            self.items = items
            self.changes = changes
        }

        func syncChanges(keychain: String, after sequence: Int64, limit: Int) throws -> [QueuedSyncChange] {
            Array((changes.queued[keychain] ?? []).filter { $0.sequence > sequence }.prefix(limit))
        }

        func queueSyncChange(_ item: KeychainItem) throws {
            changes.last += 1
            changes.queued[item.keychain, default: []].append(QueuedSyncChange(sequence: changes.last, itemClass: item.itemClass, uuid: item.uuid))
        }

        func items(matching filter: ItemFilter) throws -> [KeychainItem] {
            let matching = items.filter(filter.admits).map { item in
                var copy = item
                if !filter.loadData { copy.data = nil }
                return copy
            }
            return filter.limit.map { Array(matching.prefix($0)) } ?? matching
        }

        func insert(_ item: KeychainItem) throws {
            try removeConflicts(with: item, except: nil)
            items.append(item)
        }

        func replace(_ old: KeychainItem, with new: KeychainItem) throws {
            try removeConflicts(with: new, except: old.uuid)
            guard let index = items.firstIndex(where: { $0.uuid == old.uuid && $0.keychain == old.keychain }) else {
                throw StoreError(.corrupt, "the item to replace is gone")
            }
            items[index] = new
        }

        func remove(_ item: KeychainItem) throws {
            items.removeAll { $0.uuid == item.uuid && $0.keychain == item.keychain }
        }

        /// A live item with the same key is a duplicate; a tombstone with it gives way.
        private func removeConflicts(with item: KeychainItem, except uuid: UUID?) throws {
            let key = item.primaryKey
            let conflicts = items.filter {
                $0.uuid != uuid && $0.keychain == item.keychain && $0.itemClass == item.itemClass && $0.primaryKey == key
            }
            if conflicts.contains(where: { !$0.isTombstone }) {
                throw StoreError(.duplicate, "an item with the same primary key exists")
            }
            items.removeAll { candidate in conflicts.contains { $0.uuid == candidate.uuid } }
        }
    }
}
