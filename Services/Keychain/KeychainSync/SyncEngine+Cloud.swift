import Foundation
import KeychainItems

/// The cloud's side of the rules: what its changes and its answers to an upload do.
extension SyncEngine {
    mutating func fetched(_ changes: [CloudChange], token: String, moreComing: Bool, full: Bool) -> [SyncAction] {
        var actions: [SyncAction] = []
        for change in changes {
            switch change {
            case .saved(let record):
                fullFetchSeen?.insert(record.uuid)
                actions += received(record)
            case .deleted(let uuid):
                actions += deleted(uuid)
            }
        }
        self.token = token
        if moreComing { return actions + [.fetchChanges(since: token)] }
        fetching = false
        if let seen = fullFetchSeen {
            // A full fetch: what the device mirrors and the cloud no longer has is gone.
            fullFetchSeen = nil
            for uuid in mirror.keys.sorted(by: { $0.uuidString < $1.uuidString }) where !seen.contains(uuid) {
                actions += deleted(uuid)
            }
        }
        if fetchAgain { return actions + fetch() }
        return actions + upload()
    }

    /// A record the cloud saved. The remote change wins over a pending local edit
    /// (`CKKSItem.m` l.611); of two UUIDs with one primary key the lower is kept
    /// (`CKKSIncomingQueueOperation.m` l.876-960). A record with the change tag the mirror holds
    /// (this device's own upload, fetched back) is no remote change.
    private mutating func received(_ record: CloudItem) -> [SyncAction] {
        var actions: [SyncAction] = []
        let uuid = record.uuid
        if mirror[uuid]?.changeTag == record.changeTag { return actions }
        if outgoing[uuid] != nil, flight[uuid] == nil {
            outgoing.remove(uuid)
            actions.append(.note(uuid, .localEditDiscarded))
        }
        if let other = twin(of: record.item, besides: uuid) {
            guard uuid.uuidString < other.uuidString else {
                // The local item's UUID is lower: it stays, and this record is not applied.
                setMirror(uuid, record, indexed: false)
                return actions + [.note(uuid, .replacedByLowerUUID(other))]
            }
            actions += [.deleteLocal(other), .note(other, .replacedByLowerUUID(uuid))]
            if let mirrored = mirror[other] {
                // The cloud drops the higher UUID's record too.
                _ = outgoing.enqueue(uuid: other, old: mirrored.item, new: nil, inCloud: true)
            } else {
                outgoing.remove(other)
            }
        }
        return actions + apply(record)
    }

    /// Writes the cloud's copy locally, unless it is class A and the device is locked.
    mutating func apply(_ record: CloudItem) -> [SyncAction] {
        if locked, SyncPolicy.waitsForUnlock(record.item) {
            held[record.uuid] = record
            return [.note(record.uuid, .heldWhileLocked)]
        }
        setMirror(record.uuid, record, indexed: true)
        return [.writeLocal(record.item)]
    }

    /// A record the cloud deleted: remote deletes win (`CKKSItem.m` l.671). A delete of a record
    /// the mirror does not hold is this device's own delete fetched back (its upload already
    /// cleared the mirror) or a record it never had: nothing local is its copy. Deleting anyway
    /// would take an item re-added since under the same UUID (an add over the item's tombstone
    /// keeps the tombstone's UUID) and drop its pending upload.
    private mutating func deleted(_ uuid: UUID) -> [SyncAction] {
        guard mirror[uuid] != nil || held[uuid] != nil else { return [] }
        var actions: [SyncAction] = []
        if outgoing[uuid] != nil, flight[uuid] == nil {
            outgoing.remove(uuid)
            actions.append(.note(uuid, .localEditDiscarded))
        }
        held[uuid] = nil
        setMirror(uuid, nil, indexed: true)
        return actions + [.deleteLocal(uuid)]
    }

    /// The cloud's answer to the batch in flight. A stale tag means the server's copy wins: the
    /// local edit is dropped for good and the server's record applied
    /// (`CKKSOutgoingQueueOperation.m` l.481-521).
    mutating func uploaded(_ outcomes: [UUID: UploadOutcome]) -> [SyncAction] {
        var actions: [SyncAction] = []
        let batch = flight.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        flight = [:]
        for request in batch {
            switch outcomes[request.uuid] ?? .notAttempted {
            case .saved(let tag):
                if let item = request.item { setMirror(request.uuid, CloudItem(uuid: request.uuid, changeTag: tag, item: item), indexed: true) }
                outgoing.uploaded(request.uuid, item: request.item)
            case .deleted:
                setMirror(request.uuid, nil, indexed: true)
                outgoing.uploaded(request.uuid, item: nil)
            case .conflict(let server):
                outgoing.remove(request.uuid)
                actions.append(.note(request.uuid, .overwrittenByServer))
                if let server {
                    actions += apply(server)
                } else {
                    setMirror(request.uuid, nil, indexed: true)
                    actions.append(.deleteLocal(request.uuid))
                }
            case .notAttempted:
                break
            }
        }
        return actions + upload()
    }

    /// Another UUID holding an item with the same primary key, in the mirror or the queue.
    private func twin(of item: KeychainItem, besides uuid: UUID) -> UUID? {
        let key = PrimaryKey(item)
        if let other = byPrimaryKey[key], other != uuid { return other }
        return outgoing.first { entry in entry.uuid != uuid && entry.item.map(PrimaryKey.init) == key }?.uuid
    }

    /// Sets the mirror's record for `uuid`; `indexed`: its primary key finds it.
    private mutating func setMirror(_ uuid: UUID, _ record: CloudItem?, indexed: Bool) {
        if let old = mirror[uuid] {
            let key = PrimaryKey(old.item)
            if byPrimaryKey[key] == uuid { byPrimaryKey[key] = nil }
        }
        mirror[uuid] = record
        if let record, indexed { byPrimaryKey[PrimaryKey(record.item)] = uuid }
    }
}
