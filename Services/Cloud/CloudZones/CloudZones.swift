public import Foundation

/// What a save or a delete asks: the change tag of the record it replaces (nil: a new record).
public struct RecordWrite: Sendable, Hashable {
    public let uuid: UUID
    /// The sealed item to save; nil to delete.
    public let payload: Data?
    public let expectedTag: String?

    public init(uuid: UUID, payload: Data?, expectedTag: String?) {
        self.uuid = uuid
        self.payload = payload
        self.expectedTag = expectedTag
    }
}

/// The answer for one write of a batch.
public enum WriteOutcome: Sendable, Hashable {
    case saved(changeTag: String)
    case deleted
    /// The tag was stale, or the record is new to the writer but exists, or is gone: the
    /// server's record (nil when there is none) (`CKErrorServerRecordChanged`).
    case conflict(server: CloudRecord?)
    /// Not applied: another write of the atomic batch was refused.
    case notAttempted
}

/// A page of a zone's changes since a token.
public struct ZoneChanges: Sendable, Hashable {
    /// The latest change of each record in the page, in the order of the zone's log.
    public let changes: [RecordChange]
    /// The token to ask from next.
    public let token: String
    public let moreComing: Bool
}

/// Why a request for changes cannot be answered.
public enum ZoneChangesError: Error, Sendable, Hashable {
    /// The token is not one this zone gave (CloudKit's `CKErrorChangeTokenExpired`): fetch everything.
    case tokenExpired
}

/// The cloud's rules for a zone, over any ``ZoneStorage``: atomic batches checked against change
/// tags, and changes since a token (docs/icloud-keychain.md, "cloudd").
public struct CloudZones: Sendable {
    public let storage: any ZoneStorage

    public init(storage: any ZoneStorage) {
        self.storage = storage
    }

    /// Applies `writes` to `zone` all or none: a save must name the record's current tag (or
    /// none for a record that does not exist); a delete of a record that exists always applies
    /// (remote deletes win), and of one that is gone is a conflict with no record.
    public func modify(_ writes: [RecordWrite], in zone: ZoneID) throws -> [UUID: WriteOutcome] {
        try apply(writes, in: zone).outcomes
    }

    /// ``modify(_:in:)``, and the number of the zone's last change once the batch committed
    /// (or was refused): the zone's token then.
    public func apply(_ writes: [RecordWrite], in zone: ZoneID) throws -> (outcomes: [UUID: WriteOutcome], latest: Int) {
        let written: (result: [UUID: WriteOutcome], latest: Int) = try storage.write(in: zone) { current in
            var outcomes: [UUID: WriteOutcome] = [:]
            var changes: [RecordChange] = []
            for write in writes {
                let record = try current(write.uuid)
                guard let payload = write.payload else {
                    guard record != nil else {
                        outcomes[write.uuid] = .conflict(server: nil)
                        continue
                    }
                    changes.append(.deleted(write.uuid))
                    outcomes[write.uuid] = .deleted
                    continue
                }
                guard record?.changeTag == write.expectedTag else {
                    outcomes[write.uuid] = .conflict(server: record)
                    continue
                }
                let tag = UUID().uuidString
                changes.append(.saved(CloudRecord(uuid: write.uuid, changeTag: tag, payload: payload)))
                outcomes[write.uuid] = .saved(changeTag: tag)
            }
            let refused = outcomes.values.contains { if case .conflict = $0 { true } else { false } }
            guard !refused else {
                return ([], outcomes.mapValues { if case .conflict = $0 { $0 } else { .notAttempted } })
            }
            return (changes, outcomes)
        }
        return (written.result, written.latest)
    }

    /// The zone's changes since `token` (nil: everything, as the latest change of each record),
    /// at most `limit` log entries per page.
    public func changes(in zone: ZoneID, since token: String?, limit: Int = 400) throws -> ZoneChanges {
        let after: Int
        if let token {
            guard let number = Int(token), number >= 0 else { throw ZoneChangesError.tokenExpired }
            after = number
        } else {
            after = 0
        }
        let (entries, latest, erased) = try storage.changes(in: zone, after: after, limit: max(1, limit))
        guard after <= latest else { throw ZoneChangesError.tokenExpired }
        // A token from before the zone was erased: the changes it would follow are gone, so only a
        // fetch of everything says what the zone holds. "0" (the token of a zone that had nothing)
        // still reads from the start, as no token does.
        guard after == 0 || after >= erased else { throw ZoneChangesError.tokenExpired }
        var position: [UUID: Int] = [:]
        var collapsed: [RecordChange] = []
        for (_, change) in entries {
            if let index = position[change.uuid] {
                collapsed[index] = change
            } else {
                position[change.uuid] = collapsed.count
                collapsed.append(change)
            }
        }
        // From nothing, a record saved and deleted since is not news.
        if token == nil { collapsed.removeAll { if case .deleted = $0 { true } else { false } } }
        let last = entries.last?.sequence ?? latest
        return ZoneChanges(changes: collapsed, token: String(last), moreComing: last < latest)
    }

    /// Empties `account`'s zone of each of `views` (`kclab reset`): ``ZoneStorage/erase(_:)`` for
    /// each, by view.
    public func erase(account: String, views: [String]) throws -> [String: ZoneErasure] {
        var erased: [String: ZoneErasure] = [:]
        for view in views { erased[view] = try storage.erase(ZoneID(account: account, view: view)) }
        return erased
    }

    /// The zone's latest change token: the one a device holds once it has every change.
    public func token(of zone: ZoneID) throws -> String {
        String(try storage.latest(in: zone))
    }
}
