import AppIdentity
import Foundation
import KeychainItems
import KeychainStore
import KeychainTypes
import Testing
import WorldTestSupport

/// Data at rest: nothing readable in the database, keys outside it, rows bound to their ciphertext.
@Suite struct SealedStorageTests {
    static let secret = "correct-horse-battery-staple-7f3a"
    static let account = "alice.secret.account@example.com"

    static func client() -> ClientContext {
        ClientContext(
            caller: .app(try! AppID("ABCDE12345.com.example.AppOne")),
            entitledGroups: [try! AccessGroup("ABCDE12345.com.example.AppOne")],
            device: DeviceState(platform: .ios, osVersion: OSVersion(17, 4)),
            deviceKeychain: "00008030-001A2B3C4D5E802E"
        )
    }

    static func add(_ engine: KeychainEngine) async -> SecItemResult {
        await engine.add(
            ["class": .string("genp"), "acct": .string(account), "svce": .string("svc"), "v_Data": .data(Data(secret.utf8))],
            client: client()
        )
    }

    /// Every byte under `folder` except the key files.
    static func databaseBytes(_ folder: URL) throws -> Data {
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("keychain.sqlite") {
            bytes.append(try Data(contentsOf: folder.appending(path: name)))
        }
        return bytes
    }

    @Test func neitherSecretsNorAttributesAppearInTheDatabase() async throws {
        try await withTemporaryDirectory { folder in
            let engine = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            #expect(await Self.add(engine).status == .success)
            let sync = await engine.add(
                ["class": .string("genp"), "acct": .string("synced"), "sync": .bool(true), "v_Data": .data(Data((Self.secret + "-sync").utf8))],
                client: Self.client()
            )
            #expect(sync.status == .success)
            let bytes = try Self.databaseBytes(folder)
            #expect(bytes.count > 4096)
            #expect(bytes.firstRange(of: Data(Self.secret.utf8)) == nil, "the secret is sealed")
            #expect(bytes.firstRange(of: Data(Self.account.utf8)) == nil, "the account is sealed")
            #expect(
                bytes.firstRange(of: Data("00008030-001A2B3C4D5E802E".utf8)) != nil,
                "the scan does see plaintext: keychain names are stored in the clear"
            )
            let keyFiles = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "keys").path)
            #expect(keyFiles.count == 1, "one key per keychain: the device's, whose own copy of the synced item it seals too")
            let permissions =
                try FileManager.default.attributesOfItem(atPath: folder.appending(path: "keys/\(keyFiles[0])").path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }

    @Test func itemsSurviveARestart() async throws {
        try await withTemporaryDirectory { folder in
            #expect(await Self.add(KeychainEngine(store: try SQLiteItemStore(directory: folder))).status == .success)
            let reopened = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            let found = await reopened.copyMatching(
                ["class": .string("genp"), "acct": .string(Self.account), "r_Data": .bool(true)],
                client: Self.client()
            )
            #expect(found.result == .data(Data(Self.secret.utf8)))
        }
    }

    @Test func withoutItsKeysTheDatabaseYieldsNothing() async throws {
        try await withTemporaryDirectory { folder in
            #expect(await Self.add(KeychainEngine(store: try SQLiteItemStore(directory: folder))).status == .success)
            try FileManager.default.removeItem(at: folder.appending(path: "keys"))
            let reopened = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            let found = await reopened.copyMatching(["class": .string("genp"), "r_Data": .bool(true)], client: Self.client())
            #expect(found.status == .itemNotFound)
        }
    }

    @Test func manyWritersAtOnceLoseNothing() async throws {
        try await withTemporaryDirectory { folder in
            let engine = KeychainEngine(store: try SQLiteItemStore(directory: folder))
            let statuses = await withTaskGroup(of: SecStatus.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        await engine.add(
                            ["class": .string("genp"), "acct": .string("user-\(index % 100)"), "v_Data": .data(Data([UInt8(index % 256)]))],
                            client: Self.client()
                        ).status
                    }
                }
                var statuses: [SecStatus] = []
                for await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.filter { $0 == .success }.count == 100)
            #expect(statuses.filter { $0 == .duplicateItem }.count == 100)
            let all = await engine.copyMatching(["class": .string("genp"), "m_Limit": .string("m_LimitAll")], client: Self.client())
            #expect(all.status == .success)
        }
    }
}
