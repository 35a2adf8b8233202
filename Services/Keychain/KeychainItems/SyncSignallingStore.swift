import Foundation

/// A store that says, after each committed write, which keychains' sync queues grew: how
/// keychaind wakes a device waiting for its sync changes, whichever call made them.
public final class SyncSignallingStore: ItemStore {
    private let base: any ItemStore
    private let signal: @Sendable (Set<String>) -> Void

    /// `base`, with `signal` called after each write that queued sync changes.
    public init(_ base: any ItemStore, signal: @escaping @Sendable (Set<String>) -> Void) {
        self.base = base
        self.signal = signal
    }

    public func read<T: Sendable>(_ body: @Sendable (any ItemReading) throws -> T) async throws -> T {
        try await base.read(body)
    }

    public func lookup(_ filter: ItemFilter) async throws -> [KeychainItem] {
        try await base.lookup(filter)
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any ItemWriting) throws -> T) async throws -> T {
        let (result, queued) = try await base.write { writer in
            let noting = Noting(writer)
            return (try body(noting), noting.keychains)
        }
        if !queued.isEmpty { signal(queued) }
        return result
    }

    public func accessGroups(keychains: [String]) async throws -> Set<String> {
        try await base.accessGroups(keychains: keychains)
    }

    public func eraseAll() async throws -> Int {
        try await base.eraseAll()
    }

    public func forgetSyncChanges(keychain: String, through sequence: Int64) async throws {
        try await base.forgetSyncChanges(keychain: keychain, through: sequence)
    }

    /// A transaction's writer that notes the keychains it queued sync changes for.
    private final class Noting: ItemWriting {
        let writer: any ItemWriting
        var keychains: Set<String> = []

        init(_ writer: any ItemWriting) {
            self.writer = writer
        }

        func items(matching filter: ItemFilter) throws -> [KeychainItem] { try writer.items(matching: filter) }
        func syncChanges(keychain: String, after sequence: Int64, limit: Int) throws -> [QueuedSyncChange] {
            try writer.syncChanges(keychain: keychain, after: sequence, limit: limit)
        }
        func tombstone(withKeyOf item: KeychainItem) throws -> KeychainItem? { try writer.tombstone(withKeyOf: item) }
        func insert(_ item: KeychainItem) throws { try writer.insert(item) }
        func replace(_ old: KeychainItem, with new: KeychainItem) throws { try writer.replace(old, with: new) }
        func remove(_ item: KeychainItem) throws { try writer.remove(item) }
        func queueSyncChange(_ item: KeychainItem) throws {
            try writer.queueSyncChange(item)
            keychains.insert(item.keychain)
        }
    }
}
