public import Foundation
public import KeychainItems

/// A record as the cloud holds it, opened: the item, its UUID and the server's change tag.
public struct CloudItem: Sendable, Hashable {
    public let uuid: UUID
    public let changeTag: String
    public let item: KeychainItem

    public init(uuid: UUID, changeTag: String, item: KeychainItem) {
        self.uuid = uuid
        self.changeTag = changeTag
        self.item = item
    }
}

/// One change of a zone since a change token: a record saved, or a record deleted.
public enum CloudChange: Sendable, Hashable {
    case saved(CloudItem)
    case deleted(UUID)
}

/// What the cloud said of one uploaded change.
public enum UploadOutcome: Sendable, Hashable {
    /// Saved, with its new change tag.
    case saved(changeTag: String)
    /// Deleted.
    case deleted
    /// Refused: the change tag was stale (or the record exists, or is gone): the server's
    /// record, nil when it was deleted (`CKErrorServerRecordChanged`).
    case conflict(server: CloudItem?)
    /// Not tried: another change of the same atomic batch was refused.
    case notAttempted
}

/// One change to upload: a save with the tag it replaces (nil: a new record), or a delete.
public struct UploadRequest: Sendable, Hashable {
    public let uuid: UUID
    /// The item to save; nil to delete the record.
    public let item: KeychainItem?
    public let expectedTag: String?

    public init(uuid: UUID, item: KeychainItem?, expectedTag: String?) {
        self.uuid = uuid
        self.item = item
        self.expectedTag = expectedTag
    }
}

/// What happens to a sync engine: the device's own changes, the network and the cloud's answers,
/// the lock state.
public enum SyncEvent: Sendable, Hashable {
    /// The local keychain changed a synced item: `old` nil for an add, `new` nil for a delete.
    case localChange(uuid: UUID, old: KeychainItem?, new: KeychainItem?)
    /// Several local changes at once, queued together and uploaded as one batch.
    case localChanges([LocalChange])
    /// The link to the cloud came up or went down.
    case wentOnline
    case wentOffline
    /// The cloud says the zone changed (a push).
    case zoneChanged
    /// Changes fetched since the engine's token; `full` when no token was given (everything).
    case fetched([CloudChange], token: String, moreComing: Bool, full: Bool)
    /// The fetch failed: `tokenExpired` asks for a full fetch; otherwise try again later.
    case fetchFailed(tokenExpired: Bool, reason: String)
    /// The cloud's answer to the last upload, per item.
    case uploaded([UUID: UploadOutcome])
    /// The upload failed as a whole (a server error): retried later.
    case uploadFailed(reason: String)
    /// The retry delay has passed.
    case retryDue
    case locked
    case unlocked
}

/// One change of a synced item in the local keychain: `old` nil for an add, `new` nil for a delete.
public struct LocalChange: Sendable, Hashable {
    public let uuid: UUID
    public let old: KeychainItem?
    public let new: KeychainItem?

    public init(uuid: UUID, old: KeychainItem?, new: KeychainItem?) {
        self.uuid = uuid
        self.old = old
        self.new = new
    }
}

/// What a sync engine asks its device to do.
public enum SyncAction: Sendable, Hashable {
    /// Ask the cloud for the zone's changes since `token` (nil: everything).
    case fetchChanges(since: String?)
    /// Upload these changes in one atomic batch.
    case upload([UploadRequest])
    /// Write the cloud's copy of an item into the local keychain (as a synced item, by UUID).
    case writeLocal(KeychainItem)
    /// Delete the local item with this UUID, leaving no tombstone.
    case deleteLocal(UUID)
    /// Send `.retryDue` after this long.
    case retry(after: Duration)
    /// Something `kclab explain item` should be able to say about an item.
    case note(UUID, SyncNote)
}

/// What happened to an item that its owner may not expect.
public enum SyncNote: Sendable, Hashable {
    case notUploadedOnlyModificationDate
    case notUploadedTooLarge(Int)
    /// The local edit lost to the server's copy (a stale change tag).
    case overwrittenByServer
    /// A pending local edit was dropped: the cloud changed or deleted the item first.
    case localEditDiscarded
    /// Held until the device unlocks (class A).
    case heldWhileLocked
    /// Another UUID with the same primary key won (the lower UUID is kept).
    case replacedByLowerUUID(UUID)
}

extension SyncNote: CustomStringConvertible {
    /// What `kclab explain item` says.
    public var description: String {
        switch self {
        case .notUploadedOnlyModificationDate: "not uploaded: only its modification date changed"
        case .notUploadedTooLarge(let size): "not uploaded: \(size) bytes, and CKKS refuses records of 1 MiB or more"
        case .overwrittenByServer: "the local edit lost to the server's copy (its change tag was stale)"
        case .localEditDiscarded: "a pending local edit was dropped: the cloud changed or deleted the item first"
        case .heldWhileLocked: "the cloud's copy was held until the device unlocked (class A)"
        case .replacedByLowerUUID(let other): "another copy of the same item won: the lower UUID is kept (\(other.uuidString))"
        }
    }
}
