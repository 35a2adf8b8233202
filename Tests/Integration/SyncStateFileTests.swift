import Crypto
import Foundation
import KeychainItems
import KeychainSync
import KeychainSyncClient
import KeychainTypes
import Testing

/// The file a device keeps its iCloud Keychain engines in across restarts: sealed with the
/// account's key, whole or not at all.
@Suite struct SyncStateFileTests {
    static let secret = "hunter2-kept-across-restarts"

    static func state() -> SyncStateFile.State {
        let item = KeychainItem(
            keychain: "",
            itemClass: .genericPassword,
            attributes: ["agrp": .string("ABCDE12345.shared"), "acct": .string("alice@example.com"), "sync": .integer(1)],
            data: Data(secret.utf8)
        )
        var state = SyncStateFile.State()
        state.cursor = 12
        state.forgotten = 9
        state.online = false
        state.views[.applications] = SavedSyncEngine(
            token: "5",
            mirror: [(CloudItem(uuid: item.uuid, changeTag: "3", item: item), true)],
            outgoing: [OutgoingEntry(uuid: item.uuid, action: .modify, item: item)],
            held: []
        )
        return state
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sync-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func whatIsWrittenReadsBackAndHoldsNoSecretInTheClear() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = SyncStateFile(url: folder.appending(path: "icloud-keychain.sealed"), sealer: ItemSealer(key: SymmetricKey(size: .bits256)))
        #expect(try file.read() == nil, "no file yet: nothing saved")
        let state = Self.state()
        try file.write(state)
        #expect(try file.read() == state)
        let bytes = try Data(contentsOf: file.url)
        for clear in [Self.secret, "alice@example.com", "ABCDE12345"] {
            #expect(bytes.firstRange(of: Data(clear.utf8)) == nil, "\(clear) is on disk in the clear")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["icloud-keychain.sealed"], "no temporary file left")
    }

    @Test func anotherKeyOrAnAlteredFileIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appending(path: "icloud-keychain.sealed")
        try SyncStateFile(url: url, sealer: ItemSealer(key: SymmetricKey(size: .bits256))).write(Self.state())
        #expect(throws: (any Error).self, "another account's key does not open it") {
            try SyncStateFile(url: url, sealer: ItemSealer(key: SymmetricKey(size: .bits256))).read()
        }
        let key = SymmetricKey(size: .bits256)
        let file = SyncStateFile(url: url, sealer: ItemSealer(key: key))
        try file.write(Self.state())
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: url)
        #expect(throws: (any Error).self, "an altered file does not open") { try file.read() }
        try Data(bytes.prefix(10)).write(to: url)
        #expect(throws: (any Error).self, "nor a cut one") { try file.read() }
    }
}
