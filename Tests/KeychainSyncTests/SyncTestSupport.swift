import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
import Synchronization

/// A synced generic password of `group`, as the keychain stores it.
func password(
    _ account: String,
    _ secret: String,
    group: String = "ABCDE12345.com.example.shared",
    protection: Accessibility = .afterFirstUnlock,
    uuid: UUID = UUID(),
    modified: Double = 1000
) -> KeychainItem {
    KeychainItem(
        keychain: "device",
        itemClass: .genericPassword,
        uuid: uuid,
        attributes: [
            "agrp": .string(group), "acct": .string(account), "svce": .string("example.com"), "sync": .integer(1),
            "pdmn": .string(protection.rawValue), "mdat": .date(Date(timeIntervalSinceReferenceDate: modified)),
        ],
        data: Data(secret.utf8)
    )
}

/// The cloud's zones kept in memory: only for these tests of the code above the storage.
final class InMemoryZoneStorage: ZoneStorage {
    private struct Zone {
        var records: [UUID: CloudRecord] = [:]
        /// The changes numbered after `erased`, in order.
        var log: [RecordChange] = []
        /// The number the zone's last erase took (0: never erased).
        var erased = 0

        var latest: Int { erased + log.count }
    }

    private let zones = Mutex<[ZoneID: Zone]>([:])

    func record(_ uuid: UUID, in zone: ZoneID) throws -> CloudRecord? {
        zones.withLock { $0[zone]?.records[uuid] }
    }

    @discardableResult
    func write<Result>(
        in zone: ZoneID,
        _ decide: (_ current: (UUID) throws -> CloudRecord?) throws -> (changes: [RecordChange], result: Result)
    ) throws -> (result: Result, latest: Int) {
        try zones.withLock { zones in
            var state = zones[zone] ?? Zone()
            let (changes, result) = try decide { state.records[$0] }
            for change in changes {
                switch change {
                case .saved(let record): state.records[record.uuid] = record
                case .deleted(let uuid): state.records[uuid] = nil
                }
                state.log.append(change)
            }
            zones[zone] = state
            return (result, state.latest)
        }
    }

    func records(in zone: ZoneID) throws -> [CloudRecord] {
        zones.withLock { ($0[zone]?.records.values).map { $0.sorted { $0.uuid.uuidString < $1.uuid.uuidString } } ?? [] }
    }

    func changes(
        in zone: ZoneID,
        after sequence: Int,
        limit: Int
    ) throws -> (changes: [(sequence: Int, change: RecordChange)], latest: Int, erased: Int) {
        zones.withLock { zones in
            let state = zones[zone] ?? Zone()
            let start = min(max(0, sequence - state.erased), state.log.count)
            let page = state.log[start..<min(state.log.count, start + limit)].enumerated().map {
                (sequence: state.erased + start + $0.offset + 1, change: $0.element)
            }
            return (page, state.latest, state.erased)
        }
    }

    func latest(in zone: ZoneID) throws -> Int {
        zones.withLock { $0[zone]?.latest ?? 0 }
    }

    @discardableResult
    func erase(_ zone: ZoneID) throws -> ZoneErasure {
        zones.withLock { zones in
            guard var state = zones[zone], !state.log.isEmpty else { return ZoneErasure(records: 0, changes: 0, latest: zones[zone]?.latest ?? 0) }
            let erasure = ZoneErasure(records: state.records.count, changes: state.log.count, latest: state.latest + 1)
            (state.records, state.log, state.erased) = ([:], [], erasure.latest)
            zones[zone] = state
            return erasure
        }
    }

    var concurrentCalls: Int { 1 }

    func close() {}
}

/// What travels in a record: the item's class, attributes and secret (the tests' stand-in for
/// the device's sealing, which the engine never sees).
struct SealedItem: Codable {
    let itemClass: String
    let uuid: UUID
    let attributes: [String: SecValue]
    let data: Data?

    static func seal(_ item: KeychainItem) -> Data {
        (try? JSONEncoder().encode(SealedItem(itemClass: item.itemClass.rawValue, uuid: item.uuid, attributes: item.attributes, data: item.data)))
            ?? Data()
    }

    static func open(_ record: CloudRecord) -> CloudItem? {
        guard let sealed = try? JSONDecoder().decode(SealedItem.self, from: record.payload),
            let itemClass = ItemClass(rawValue: sealed.itemClass)
        else { return nil }
        let item = KeychainItem(keychain: "device", itemClass: itemClass, uuid: sealed.uuid, attributes: sealed.attributes, data: sealed.data)
        return CloudItem(uuid: record.uuid, changeTag: record.changeTag, item: item)
    }
}

/// A device of the tests: its keychain's synced items, one view's engine, and a link to the
/// zones that runs each action the engine asks for until there is none left.
final class TestDevice {
    let zones: CloudZones
    let zone: ZoneID
    var engine: SyncEngine
    var keychain: [UUID: KeychainItem] = [:]
    var notes: [(UUID, SyncNote)] = []
    var retries = 0
    /// When set, the next upload fails as a server error would.
    var failNextUpload = false
    /// How many changes each upload carried, in order.
    var uploads: [Int] = []

    init(_ zones: CloudZones, account: String = "alice@example.com", view: SyncView = .applications) {
        self.zones = zones
        zone = ZoneID(account: account, view: view.rawValue)
        engine = SyncEngine(view: view)
    }

    func write(_ item: KeychainItem) {
        let old = keychain[item.uuid]
        keychain[item.uuid] = item
        handle(.localChange(uuid: item.uuid, old: old, new: item))
    }

    func delete(_ uuid: UUID) {
        let old = keychain.removeValue(forKey: uuid)
        handle(.localChange(uuid: uuid, old: old, new: nil))
    }

    /// The secret of the item `account` holds, if any.
    func secret(_ account: String) -> String? {
        keychain.values.first { $0.attributes["acct"]?.string == account }.flatMap { $0.data }.map { String(decoding: $0, as: UTF8.self) }
    }

    func notes(for uuid: UUID) -> [SyncNote] { notes.filter { $0.0 == uuid }.map(\.1) }

    func handle(_ event: SyncEvent) {
        var events = [event]
        var next = 0
        while next < events.count {
            let current = events[next]
            next += 1
            for action in engine.handle(current) {
                switch action {
                case .fetchChanges(let token):
                    do {
                        let page = try zones.changes(in: zone, since: token, limit: 3)
                        let changes: [CloudChange] = page.changes.compactMap { change in
                            switch change {
                            case .saved(let record): SealedItem.open(record).map { .saved($0) }
                            case .deleted(let uuid): .deleted(uuid)
                            }
                        }
                        events.append(.fetched(changes, token: page.token, moreComing: page.moreComing, full: token == nil))
                    } catch {
                        events.append(.fetchFailed(tokenExpired: error as? ZoneChangesError == .tokenExpired, reason: "\(error)"))
                    }
                case .upload(let batch):
                    uploads.append(batch.count)
                    if failNextUpload {
                        failNextUpload = false
                        events.append(.uploadFailed(reason: "HTTP 503"))
                        continue
                    }
                    let writes = batch.map { RecordWrite(uuid: $0.uuid, payload: $0.item.map(SealedItem.seal), expectedTag: $0.expectedTag) }
                    let outcomes = (try? zones.modify(writes, in: zone)) ?? [:]
                    events.append(
                        .uploaded(
                            outcomes.mapValues { outcome in
                                switch outcome {
                                case .saved(let tag): .saved(changeTag: tag)
                                case .deleted: .deleted
                                case .conflict(let server): .conflict(server: server.flatMap(SealedItem.open))
                                case .notAttempted: .notAttempted
                                }
                            }
                        )
                    )
                case .writeLocal(let item): keychain[item.uuid] = item
                case .deleteLocal(let uuid): keychain[uuid] = nil
                case .retry: retries += 1
                case .note(let uuid, let note): notes.append((uuid, note))
                }
            }
        }
    }
}
