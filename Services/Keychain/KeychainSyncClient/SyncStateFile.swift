public import Foundation
import KeychainAPI
import KeychainItems
public import KeychainSync

/// What a device keeps of its iCloud Keychain across a restart: each view's engine (the change
/// token it resumes from, the mirror, the queues) and where it is in keychaind's feed. Sealed
/// with the account's key, so no item is on disk in the clear, and written whole, atomically,
/// readable by the device's user alone (docs/icloud-keychain.md, "Restarts").
public struct SyncStateFile: Sendable {
    public let url: URL
    let sealer: ItemSealer
    /// The associated data the file is sealed for: another file's contents do not open as this.
    static let context = "kclab icloud-keychain state v1"

    public init(url: URL, sealer: ItemSealer) {
        self.url = url
        self.sealer = sealer
    }

    public struct State: Sendable, Hashable {
        /// The last change taken from keychaind's feed, and the last it was told to forget.
        public var cursor: Int64 = 0
        public var forgotten: Int64 = 0
        public var online = true
        public var keychainSync = true
        public var views: [SyncView: SavedSyncEngine] = [:]

        public init() {}
    }

    /// The file as saved; nil when there is none. Throws when it cannot be opened (another
    /// account's key, altered) or read.
    public func read() throws -> State? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let plaintext = try sealer.open(Data(contentsOf: url), context: Self.context)
        let stored = try JSONDecoder().decode(Stored.self, from: plaintext)
        var state = State()
        state.cursor = stored.cursor
        state.forgotten = stored.forgotten
        state.online = stored.online
        state.keychainSync = stored.keychainSync
        for (name, engine) in stored.views {
            guard let view = SyncView(rawValue: name) else { continue }
            state.views[view] = engine.saved
        }
        return state
    }

    public func write(_ state: State) throws {
        let stored = Stored(
            cursor: state.cursor,
            forgotten: state.forgotten,
            online: state.online,
            keychainSync: state.keychainSync,
            views: Dictionary(uniqueKeysWithValues: state.views.map { ($0.key.rawValue, StoredEngine($0.value)) })
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let sealed = try sealer.seal(encoder.encode(stored), context: Self.context)
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: sealed, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        // rename(2) replaces the old file in one step: a reader finds the old state or the new.
        guard rename(temporary.path, url.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    // MARK: The file's shape

    private struct Stored: Codable {
        var cursor: Int64
        var forgotten: Int64
        var online: Bool
        var keychainSync: Bool
        var views: [String: StoredEngine]
    }

    private struct StoredRecord: Codable {
        var changeTag: String
        var indexed: Bool
        var item: KeychainAPI.SyncedItem

        init(_ record: CloudItem, indexed: Bool) {
            changeTag = record.changeTag
            self.indexed = indexed
            item = KeychainAPI.SyncedItem(record.item)
        }

        var record: CloudItem { CloudItem(uuid: item.uuid, changeTag: changeTag, item: item.item) }
    }

    private struct StoredEntry: Codable {
        var uuid: UUID
        var action: OutgoingEntry.Action
        var item: KeychainAPI.SyncedItem?
    }

    private struct StoredEngine: Codable {
        var token: String?
        var mirror: [StoredRecord]
        var outgoing: [StoredEntry]
        var held: [StoredRecord]

        init(_ engine: SavedSyncEngine) {
            token = engine.token
            mirror = engine.mirror.map { StoredRecord($0.record, indexed: $0.indexed) }
            outgoing = engine.outgoing.map { StoredEntry(uuid: $0.uuid, action: $0.action, item: $0.item.map(KeychainAPI.SyncedItem.init)) }
            held = engine.held.map { StoredRecord($0, indexed: false) }
        }

        var saved: SavedSyncEngine {
            SavedSyncEngine(
                token: token,
                mirror: mirror.map { ($0.record, $0.indexed) },
                outgoing: outgoing.map { OutgoingEntry(uuid: $0.uuid, action: $0.action, item: $0.item?.item) },
                held: held.map(\.record)
            )
        }
    }
}
