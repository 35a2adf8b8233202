public import Foundation
public import KeychainItems
public import KeychainSync

/// Where a device keeps the synced items the cloud gives it.
public protocol SyncedKeychain: Sendable {
    /// Deletes the items `deletes` names, leaving no tombstone, then writes the cloud's copies
    /// `writes` by UUID as synced items, as one change of the keychain; no change event follows.
    func apply(writes: [KeychainItem], deletes: [UUID]) async throws
}

/// Runs one view's ``SyncEngine`` against cloudd: each action the engine returns is carried
/// out, and its answer fed back, until the engine asks for nothing more.
public actor SyncDriver {
    public private(set) var engine: SyncEngine
    private let cloud: CloudClient
    private let keychain: any SyncedKeychain
    /// What the engine noted, with the item as the engine knew it then, for `kclab explain
    /// item`: the latest ``noteLimit``.
    public private(set) var notes: [(uuid: UUID, note: SyncNote, item: KeychainItem?)] = []
    public static let noteLimit = 200
    /// How many bytes of records one write to the keychain carries at most (one record may be more).
    static let applyBytes = 2 << 20
    /// When the engine's retry is due, if it waits for one (the caller's clock sends `.retryDue`).
    public private(set) var retryAt: ContinuousClock.Instant?

    /// A driver of `engine` (a fresh one, or one restored from a saved state).
    public init(engine: SyncEngine, cloud: CloudClient, keychain: any SyncedKeychain) {
        self.engine = engine
        self.cloud = cloud
        self.keychain = keychain
    }

    public init(view: SyncView, cloud: CloudClient, keychain: any SyncedKeychain) {
        self.init(engine: SyncEngine(view: view), cloud: cloud, keychain: keychain)
    }

    /// Whether the engine waits for a retry.
    public var retryPending: Bool { retryAt != nil }

    /// Feeds `event` and everything that follows from it to the engine.
    public func handle(_ event: SyncEvent) async {
        var events = [event]
        var next = 0
        while next < events.count {
            let current = events[next]
            next += 1
            if case .retryDue = current { retryAt = nil }
            var batch = KeychainBatch()
            for action in engine.handle(current) {
                switch action {
                case .writeLocal(let item):
                    let size = 2 * OutgoingQueue.recordSize(item) + 512
                    if !batch.writes.isEmpty, batch.bytes + size > Self.applyBytes { await flush(&batch) }
                    batch.writes.append(item)
                    batch.bytes += size
                case .deleteLocal(let uuid):
                    if !batch.writes.isEmpty { await flush(&batch) }
                    batch.deletes.append(uuid)
                default:
                    await flush(&batch)
                    if let following = await perform(action) { events.append(following) }
                }
            }
            await flush(&batch)
        }
    }

    /// The keychain's writes and deletes of one step, sent together (deletes first, so a delete
    /// that follows a write starts the next batch), each batch well under keychaind's 4 MiB body
    /// (base64 and JSON about double a record).
    struct KeychainBatch {
        var writes: [KeychainItem] = []
        var deletes: [UUID] = []
        var bytes = 0
    }

    private func flush(_ batch: inout KeychainBatch) async {
        guard !batch.writes.isEmpty || !batch.deletes.isEmpty else { return }
        try? await keychain.apply(writes: batch.writes, deletes: batch.deletes)
        batch = KeychainBatch()
    }

    private func perform(_ action: SyncAction) async -> SyncEvent? {
        switch action {
        case .fetchChanges(let token):
            do {
                switch try await cloud.changes(view: engine.view, since: token) {
                case .changes(let changes, let next, let more):
                    return .fetched(changes, token: next, moreComing: more, full: token == nil)
                case .tokenExpired:
                    return .fetchFailed(tokenExpired: true, reason: "the change token expired")
                }
            } catch {
                return .fetchFailed(tokenExpired: false, reason: "\(error)")
            }
        case .upload(let batch):
            do {
                return .uploaded(try await cloud.upload(batch, view: engine.view))
            } catch {
                return .uploadFailed(reason: "\(error)")
            }
        case .writeLocal, .deleteLocal:
            // Gathered into batches by handle(_:), never performed one by one.
            break
        case .retry(let delay):
            retryAt = .now + delay
        case .note(let uuid, let note):
            let item = engine.mirror[uuid]?.item ?? engine.outgoing[uuid]?.item ?? engine.held[uuid]?.item
            notes.append((uuid, note, item))
            if notes.count > Self.noteLimit { notes.removeFirst(notes.count - Self.noteLimit) }
        }
        return nil
    }
}
