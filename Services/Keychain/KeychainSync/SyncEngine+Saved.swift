import Foundation

/// What a device keeps of one view's engine across a restart, as CKKS keeps its zone's state,
/// mirror and queues in the keychain's database (`CKKSZoneStateEntry`, `CKKSMirrorEntry`,
/// `CKKSOutgoingQueueEntry`, `CKKSIncomingQueueEntry` in `keychain/ckks/`): the change token to
/// resume from, the cloud's records as last seen, the changes not uploaded, and the cloud's
/// changes held until the unlock. An upload in flight is not kept: after the restart it is
/// queued again, and if the cloud had taken it, its stale tag brings the cloud's copy back.
public struct SavedSyncEngine: Sendable, Hashable {
    public var token: String?
    /// The mirror; `indexed`: the record its primary key finds (false for the higher UUID of
    /// two copies of one item, kept only to be dropped).
    public var mirror: [(record: CloudItem, indexed: Bool)]
    /// The outgoing queue, oldest first.
    public var outgoing: [OutgoingEntry]
    public var held: [CloudItem]

    public init(token: String?, mirror: [(record: CloudItem, indexed: Bool)], outgoing: [OutgoingEntry], held: [CloudItem]) {
        self.token = token
        self.mirror = mirror
        self.outgoing = outgoing
        self.held = held
    }

    public static func == (lhs: SavedSyncEngine, rhs: SavedSyncEngine) -> Bool {
        lhs.token == rhs.token && lhs.outgoing == rhs.outgoing && lhs.held == rhs.held
            && lhs.mirror.map(\.record) == rhs.mirror.map(\.record) && lhs.mirror.map(\.indexed) == rhs.mirror.map(\.indexed)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
        hasher.combine(outgoing)
        hasher.combine(held)
        hasher.combine(mirror.map(\.record))
        hasher.combine(mirror.map(\.indexed))
    }
}

extension SyncEngine {
    /// The engine's state to keep, in a stable order.
    public var saved: SavedSyncEngine {
        let indexed = Set(byPrimaryKey.values)
        return SavedSyncEngine(
            token: token,
            mirror: mirror.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }.map { ($0, indexed.contains($0.uuid)) },
            outgoing: outgoing.pending,
            held: held.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        )
    }

    /// An engine resuming from what ``saved`` kept: offline until `.wentOnline`, when it
    /// fetches from the saved token (a full fetch without one) and uploads what is queued.
    public init(view: SyncView, restoring saved: SavedSyncEngine) {
        self.init(view: view)
        token = saved.token
        for (record, indexed) in saved.mirror {
            mirror[record.uuid] = record
            if indexed { byPrimaryKey[PrimaryKey(record.item)] = record.uuid }
        }
        outgoing = OutgoingQueue(saved.outgoing)
        for record in saved.held { held[record.uuid] = record }
    }
}
