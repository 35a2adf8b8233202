public import Foundation
public import KeychainTypes
public import LabErrors

/// Where keychain items live. The engine decides what a SecItem call means; a store only finds,
/// inserts, replaces and removes items, inside transactions.
///
/// Implementations: `SQLiteItemStore` (the daemon's, encrypted at rest) and ``InMemoryItemStore``
/// (for tests of the engine).
public protocol ItemStore: Sendable {
    /// Runs `body` with a consistent view of the items.
    func read<T: Sendable>(_ body: @Sendable (any ItemReading) throws -> T) async throws -> T
    /// The items matching `filter`, read with one statement (a store may skip the transaction).
    func lookup(_ filter: ItemFilter) async throws -> [KeychainItem]
    /// Runs `body` in one transaction; if it throws, nothing it did is kept. The body may run on
    /// another task (the SQLite store commits concurrent writers together), hence `@escaping`.
    func write<T: Sendable>(_ body: @escaping @Sendable (any ItemWriting) throws -> T) async throws -> T
    /// The access groups that hold live items in `keychains` (`kclab explain`), without reading
    /// the items themselves.
    func accessGroups(keychains: [String]) async throws -> Set<String>
    /// Removes every item of every keychain (the operator's `kclab reset`) and answers how many
    /// live ones there were; keys are kept.
    func eraseAll() async throws -> Int
    /// Forgets the queued sync changes of `keychain` up to `sequence`: its device has them.
    func forgetSyncChanges(keychain: String, through sequence: Int64) async throws
}

extension ItemStore {
    public func lookup(_ filter: ItemFilter) async throws -> [KeychainItem] {
        try await read { try $0.items(matching: filter) }
    }

    public func accessGroups(keychains: [String]) async throws -> Set<String> {
        var groups: Set<String> = []
        for itemClass in ItemClass.allCases {
            for item in try await lookup(ItemFilter(keychains: keychains, itemClass: itemClass)) {
                if case .string(let group)? = item.attributes["agrp"] { groups.insert(group) }
            }
        }
        return groups
    }
}

/// Finding items.
public protocol ItemReading {
    /// The items matching `filter`, oldest first.
    func items(matching filter: ItemFilter) throws -> [KeychainItem]
    /// The sync changes of `keychain` queued after `sequence`, oldest first, at most `limit`.
    func syncChanges(keychain: String, after sequence: Int64, limit: Int) throws -> [QueuedSyncChange]
    /// The tombstone with `item`'s keychain, class and primary key, if the store keeps one (a
    /// default implementation searches with ``items(matching:)``).
    func tombstone(withKeyOf item: KeychainItem) throws -> KeychainItem?
}

/// Changing items, inside a write transaction.
public protocol ItemWriting: ItemReading {
    /// Adds `item`. A live item with the same keychain, class and primary key makes it throw
    /// ``StoreError/Code/duplicate``; a tombstone with them is replaced.
    func insert(_ item: KeychainItem) throws
    /// Replaces the item whose UUID is `old.uuid` with `new`, under the same rule for conflicts.
    func replace(_ old: KeychainItem, with new: KeychainItem) throws
    /// Removes the item with this UUID.
    func remove(_ item: KeychainItem) throws
    /// Queues a change of the synchronizable item `item` (by UUID) for its device's sync engine,
    /// in the same transaction as the change, as CKKS writes its outgoing queue
    /// (docs/icloud-keychain.md).
    func queueSyncChange(_ item: KeychainItem) throws
}

/// A change of a synchronizable item its device has not taken yet: the item's keychain, class
/// and UUID, numbered in the order they happened. What changed is read from the item itself.
public struct QueuedSyncChange: Hashable, Sendable {
    public let sequence: Int64
    public let itemClass: ItemClass
    public let uuid: UUID

    public init(sequence: Int64, itemClass: ItemClass, uuid: UUID) {
        self.sequence = sequence
        self.itemClass = itemClass
        self.uuid = uuid
    }
}

/// Which items a store returns.
public struct ItemFilter: Hashable, Sendable {
    /// The keychains to look in.
    public var keychains: [String]
    /// The class.
    public var itemClass: ItemClass
    /// The access groups to look in; `nil` for all.
    public var accessGroups: [String]?
    /// The sync state; `nil` for both.
    public var synchronizable: Bool?
    /// Exact values that attributes must have (typed: a string never equals data).
    public var attributes: [String: SecValue]
    /// One item by its UUID (a persistent reference).
    public var uuid: UUID?
    /// Whether tombstones are included.
    public var includeTombstones: Bool
    /// At most this many; `nil` for all.
    public var limit: Int?
    /// Whether to decrypt and return each item's data.
    public var loadData: Bool

    /// A filter; by default every live item of the class in the keychains.
    public init(
        keychains: [String],
        itemClass: ItemClass,
        accessGroups: [String]? = nil,
        synchronizable: Bool? = nil,
        attributes: [String: SecValue] = [:],
        uuid: UUID? = nil,
        includeTombstones: Bool = false,
        limit: Int? = nil,
        loadData: Bool = false
    ) {
        self.keychains = keychains
        self.itemClass = itemClass
        self.accessGroups = accessGroups
        self.synchronizable = synchronizable
        self.attributes = attributes
        self.uuid = uuid
        self.includeTombstones = includeTombstones
        self.limit = limit
        self.loadData = loadData
    }

    /// Whether `item` passes the filter (stores that cannot express every condition in SQL use this).
    public func admits(_ item: KeychainItem) -> Bool {
        keychains.contains(item.keychain)
            && item.itemClass == itemClass
            && (includeTombstones || !item.isTombstone)
            && (accessGroups?.contains(item.accessGroup) ?? true)
            && (synchronizable.map { $0 == item.isSynchronizable } ?? true)
            && (uuid.map { $0 == item.uuid } ?? true)
            && attributes.allSatisfy { code, value in item.attributes[code] == value }
    }
}

/// A store that cannot do what it was asked.
public typealias StoreError = CodedError<StoreErrors>

/// The errors of an item store.
public enum StoreErrors: ErrorDomain {
    /// `duplicate: an item with the same primary key exists`: the code first, for logs.
    public static func describe(code: String, message: String) -> String { "\(code): \(message)" }
}

extension CodedError.Code where Domain == StoreErrors {
    /// A live item has the same primary key.
    public static let duplicate = Self("duplicate")
    /// Stored bytes cannot be decrypted or decoded.
    public static let corrupt = Self("corrupt")
    /// The database cannot be read or written (SQLITE_IOERR).
    public static let io = Self("io")
    /// The database is read-only (SQLITE_READONLY).
    public static let readOnly = Self("readOnly")
    /// Memory ran out (SQLITE_NOMEM).
    public static let outOfMemory = Self("outOfMemory")
    /// The database cannot be used at all: damaged, not a database, or any other SQLite failure.
    public static let unavailable = Self("unavailable")
}

extension CodedError where Domain == StoreErrors {
    /// The OSStatus a device reports for this failure (spec §2.9: SQLITE_IOERR is errSecIO,
    /// SQLITE_READONLY errSecReadOnly, SQLITE_NOMEM errSecAllocate, most others — a damaged
    /// database included, as KeychainAPITests' corruption test expects — errSecNotAvailable).
    public var status: SecStatus {
        switch code {
        case .duplicate: .duplicateItem
        case .corrupt: .decode
        case .io: .io
        case .readOnly: .readOnly
        case .outOfMemory: .allocate
        default: .notAvailable
        }
    }
}
