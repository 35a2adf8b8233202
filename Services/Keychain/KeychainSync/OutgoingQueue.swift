public import Foundation
public import KeychainItems

/// One change waiting to go to the cloud (`CKKSOutgoingQueueEntry`).
public struct OutgoingEntry: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable, Codable {
        case add, modify, delete
    }

    public let uuid: UUID
    public var action: Action
    /// The item to upload; nil for a delete.
    public var item: KeychainItem?

    public init(uuid: UUID, action: Action, item: KeychainItem?) {
        self.uuid = uuid
        self.action = action
        self.item = item
    }
}

/// Why a local change does not become an outgoing entry.
public enum OutgoingRefusal: Sendable, Hashable {
    /// Only `mdat` changed (`CKKSOutgoingQueueEntry.m` l.323-340: "only changes mdat; skipping").
    case onlyModificationDate
    /// The record would be 1 MiB or more (`CKKSOutgoingQueueEntry.m` l.393-403: "Object size too large").
    case tooLarge(Int)
}

/// The changes a device's view has not uploaded yet, merged as CKKS merges them
/// (`CKKSOutgoingQueueEntry.m`, `+withItem:`, l.271-299): (add, modify) ⇒ add; (add, delete) ⇒
/// nothing, unless the cloud already has the item; (delete, add) ⇒ modify. Entries keep the
/// order of their first change.
public struct OutgoingQueue: Sendable, Hashable {
    /// The largest record CKKS uploads, exclusive.
    public static let maximumRecordSize = 1 << 20

    private var entries: [UUID: OutgoingEntry] = [:]
    /// When each entry was first queued: its place in ``pending``.
    private var queued: [UUID: Int] = [:]
    private var nextPlace = 0

    public init() {}

    /// A queue holding `entries`, in that order (a saved queue restored).
    public init(_ entries: [OutgoingEntry]) {
        for entry in entries { put(entry) }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The entries in the order they were first queued.
    public var pending: [OutgoingEntry] {
        entries.values.sorted { queued[$0.uuid, default: 0] < queued[$1.uuid, default: 0] }
    }

    public subscript(uuid: UUID) -> OutgoingEntry? { entries[uuid] }

    /// An entry that satisfies `predicate`, in no particular order.
    public func first(where predicate: (OutgoingEntry) -> Bool) -> OutgoingEntry? {
        entries.values.first(where: predicate)
    }

    /// Queues the local change from `old` to `new` (nil: added; nil: deleted) of the item
    /// `uuid`; `inCloud` says whether the cloud already holds a record for it.
    public mutating func enqueue(uuid: UUID, old: KeychainItem?, new: KeychainItem?, inCloud: Bool) -> OutgoingRefusal? {
        if let old, let new, Self.sameButForModificationDate(old, new) { return .onlyModificationDate }
        if let new {
            let size = Self.recordSize(new)
            if size >= Self.maximumRecordSize { return .tooLarge(size) }
        }
        let incoming: OutgoingEntry.Action = new == nil ? .delete : (old == nil && !inCloud ? .add : .modify)
        guard let pending = entries[uuid] else {
            put(OutgoingEntry(uuid: uuid, action: incoming, item: new))
            return nil
        }
        switch (pending.action, incoming) {
        case (.add, .delete) where !inCloud:
            remove(uuid)
        case (.add, _) where new != nil:
            put(OutgoingEntry(uuid: uuid, action: .add, item: new))
        case (.delete, .add), (.delete, .modify):
            put(OutgoingEntry(uuid: uuid, action: .modify, item: new))
        default:
            put(OutgoingEntry(uuid: uuid, action: incoming, item: new))
        }
        return nil
    }

    /// The cloud took the upload of `item` (nil: the delete): the entry goes, unless the item
    /// changed again meanwhile, when it stays as a change of what the cloud now holds.
    public mutating func uploaded(_ uuid: UUID, item: KeychainItem?) {
        guard var entry = entries[uuid] else { return }
        if entry.item == item {
            remove(uuid)
            return
        }
        entry.action = item == nil ? (entry.item == nil ? .delete : .add) : (entry.item == nil ? .delete : .modify)
        entries[uuid] = entry
    }

    /// Drops the item's entry (uploaded, or overtaken by the cloud's copy).
    @discardableResult
    public mutating func remove(_ uuid: UUID) -> OutgoingEntry? {
        queued[uuid] = nil
        return entries.removeValue(forKey: uuid)
    }

    private mutating func put(_ entry: OutgoingEntry) {
        if entries.updateValue(entry, forKey: entry.uuid) == nil {
            queued[entry.uuid] = nextPlace
            nextPlace += 1
        }
    }

    /// Whether two versions of an item differ in `mdat` (and the digest derived from it) only.
    static func sameButForModificationDate(_ old: KeychainItem, _ new: KeychainItem) -> Bool {
        var before = old.attributes
        var after = new.attributes
        for key in ["mdat", "sha1"] {
            before[key] = nil
            after[key] = nil
        }
        return before == after && old.data == new.data && old.itemClass == new.itemClass
    }

    /// The bytes a record of the item takes: its secret and its attributes as JSON.
    public static func recordSize(_ item: KeychainItem) -> Int {
        let attributes = (try? JSONEncoder().encode(item.attributes).count) ?? 0
        return (item.data?.count ?? 0) + attributes
    }
}
