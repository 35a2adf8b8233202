public import Foundation
import KeychainItems
import KeychainTypes

/// CKKS for one view of one device, as a state machine: each event returns the actions the
/// device must take, so every rule is a unit test without a network (docs/icloud-keychain.md).
/// The device owns the keychain and the link to the cloud; the engine owns the queues, the
/// mirror of the cloud's records and the zone's change token.
public struct SyncEngine: Sendable {
    /// How long CKKS waits before uploading again after a server error (`OQEDELAY`,
    /// `keychain/ckks/CKKSOutgoingQueueOperation.m` l.50, l.555-559).
    public static let retryDelay: Duration = .seconds(30 * 60)
    /// The most changes one upload carries (`SecCKKSOutgoingQueueItemsAtOnce`,
    /// `keychain/ckks/CKKS.h` l.286; `CKKSOutgoingQueueOperation.m` l.114-126): the rest go in
    /// the next batch, once this one is answered.
    public static let uploadBatch = 100

    public let view: SyncView
    public internal(set) var online = false
    public internal(set) var locked = false
    /// The zone's change token this device has fetched up to (nil: nothing yet).
    public internal(set) var token: String?
    /// Local changes not uploaded yet.
    public internal(set) var outgoing = OutgoingQueue()
    /// The cloud's records as this device last saw them (CKKS's mirror): what a change tag is
    /// checked against.
    public internal(set) var mirror: [UUID: CloudItem] = [:]
    /// Incoming class-A changes waiting for the unlock.
    public internal(set) var held: [UUID: CloudItem] = [:]
    /// The last error of the link, for `kclab sync status`.
    public internal(set) var lastError: String?

    /// The batch uploaded and not answered yet.
    var flight: [UUID: UploadRequest] = [:]
    var fetching = false
    /// A push came during a fetch: fetch again after it.
    var fetchAgain = false
    var waitingToRetry = false
    /// The records a full fetch has listed so far.
    var fullFetchSeen: Set<UUID>?
    /// The mirror's items by primary key, to find two UUIDs of one item.
    var byPrimaryKey: [PrimaryKey: UUID] = [:]

    public init(view: SyncView) {
        self.view = view
    }

    /// Whether an upload is waiting for the cloud's answer.
    public var uploading: Bool { !flight.isEmpty }

    public mutating func handle(_ event: SyncEvent) -> [SyncAction] {
        switch event {
        case .localChange(let uuid, let old, let new):
            return queue(uuid, old: old, new: new) + upload()
        case .localChanges(let changes):
            return changes.flatMap { queue($0.uuid, old: $0.old, new: $0.new) } + upload()
        case .wentOnline:
            online = true
            return fetch()
        case .wentOffline:
            online = false
            fetching = false
            fetchAgain = false
            // Unanswered uploads stay queued; if the cloud took them, the next upload's stale
            // tag brings its copy back.
            flight = [:]
            return []
        case .zoneChanged:
            guard online else { return [] }
            guard !fetching else {
                fetchAgain = true
                return []
            }
            return fetch()
        case .fetched(let changes, let token, let moreComing, let full):
            return fetched(changes, token: token, moreComing: moreComing, full: full)
        case .fetchFailed(let tokenExpired, let reason):
            fetching = false
            if tokenExpired {
                token = nil
                return fetch()
            }
            lastError = reason
            return scheduleRetry()
        case .uploaded(let outcomes):
            return uploaded(outcomes)
        case .uploadFailed(let reason):
            flight = [:]
            lastError = reason
            return scheduleRetry()
        case .retryDue:
            waitingToRetry = false
            guard online else { return [] }
            return token == nil || fetchAgain ? fetch() : upload()
        case .locked:
            locked = true
            return []
        case .unlocked:
            locked = false
            let waiting = held.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            held = [:]
            return waiting.flatMap { apply($0) }
        }
    }

    /// Queues a local change; what it notes (the upload is the caller's next step).
    private mutating func queue(_ uuid: UUID, old: KeychainItem?, new: KeychainItem?) -> [SyncAction] {
        // A local change cancels the item's pending incoming change (CKKSKeychainView.m l.2153-2167).
        held[uuid] = nil
        let inCloud = mirror[uuid] != nil || flight[uuid] != nil
        switch outgoing.enqueue(uuid: uuid, old: old, new: new, inCloud: inCloud) {
        case .onlyModificationDate?: return [.note(uuid, .notUploadedOnlyModificationDate)]
        case .tooLarge(let size)?: return [.note(uuid, .notUploadedTooLarge(size))]
        case nil: return []
        }
    }

    mutating func fetch() -> [SyncAction] {
        guard online else { return [] }
        fetching = true
        fetchAgain = false
        if token == nil, fullFetchSeen == nil { fullFetchSeen = [] }
        return [.fetchChanges(since: token)]
    }

    mutating func scheduleRetry() -> [SyncAction] {
        guard !waitingToRetry else { return [] }
        waitingToRetry = true
        return [.retry(after: Self.retryDelay)]
    }

    /// Uploads every queued change not in flight, as one batch, when the link allows.
    mutating func upload() -> [SyncAction] {
        guard online, flight.isEmpty, !fetching, !waitingToRetry else { return [] }
        let batch = outgoing.pending.prefix(Self.uploadBatch).map { entry in
            UploadRequest(uuid: entry.uuid, item: entry.item, expectedTag: mirror[entry.uuid]?.changeTag)
        }
        guard !batch.isEmpty else { return [] }
        for request in batch { flight[request.uuid] = request }
        return [.upload(batch)]
    }
}

/// An item's class and primary-key values: two UUIDs with the same key are one item twice.
struct PrimaryKey: Hashable, Sendable {
    let itemClass: ItemClass
    let values: [SecValue]

    init(_ item: KeychainItem) {
        itemClass = item.itemClass
        values = item.primaryKey
    }
}
