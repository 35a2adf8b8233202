import CloudAPI
import Crypto
import DeviceProtocol
import Foundation
import KeychainItems
import KeychainSync
import KeychainSyncClient
import KeychainTypes
import LabControl
import ServiceSupport
import Synchronization
import Testing
import WorldTestSupport

/// The sync engine driven against a real cloudd with the devices' certificates: items sealed
/// with the account's key go up, the other device opens them, and a stale tag loses to the
/// server's copy. The devices' keychains here are the drivers' own stores, without keychaind
/// (ICloudKeychainTests runs whole devices).
@Suite(.serialized) struct CloudSyncTests {
    /// A device's synced items, as the driver writes them.
    final class Store: SyncedKeychain {
        let items = Mutex<[UUID: KeychainItem]>([:])

        func apply(writes: [KeychainItem], deletes: [UUID]) async throws {
            items.withLock { items in
                for uuid in deletes { items[uuid] = nil }
                for item in writes { items[item.uuid] = item }
            }
        }

        func secret(_ uuid: UUID) -> String? {
            items.withLock { $0[uuid]?.data }.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func item(_ secret: String, uuid: UUID = UUID()) -> KeychainItem {
        KeychainItem(
            keychain: "",
            itemClass: .genericPassword,
            uuid: uuid,
            attributes: [
                "agrp": .string("ABCDE12345.com.example.shared"), "acct": .string("alice"), "svce": .string("example.com"),
                "sync": .integer(1), "pdmn": .string("ck"),
            ],
            data: Data(secret.utf8)
        )
    }

    @Test func twoDevicesSyncThroughCloudd() async throws {
        try await withLab(CloudServiceTests.world) { (lab: RunningLab) async throws in
            let key = SymmetricKey(size: .bits256)
            let clients = try ["phone", "mac"].map { try CloudServiceTests.client(lab, $0) }
            defer {
                for client in clients { Task { await client.shutdown() } }
            }
            let stores = [Store(), Store()]
            let drivers = (0..<2).map { index in
                SyncDriver(view: .applications, cloud: CloudClient(client: clients[index], sealer: ItemSealer(key: key)), keychain: stores[index])
            }
            for driver in drivers { await driver.handle(.wentOnline) }

            // A secret long enough that random ciphertext cannot contain it by chance ("v1" did,
            // one run in a few hundred).
            let original = Self.item("v1-the-iphones-secret")
            await drivers[0].handle(.localChange(uuid: original.uuid, old: nil, new: original))
            await drivers[1].handle(.zoneChanged)
            #expect(stores[1].secret(original.uuid) == "v1-the-iphones-secret", "the Mac opened what the iPhone sealed")

            // cloudd holds a sealed record it cannot read.
            let raw = try await clients[0].get("/v1/zones/Applications/changes", as: CloudAPI.ChangesResponse.self)
            let payload = try #require(raw.changes.first?.payload)
            let sealed = String(decoding: payload, as: UTF8.self)
            #expect(!sealed.contains("the-iphones-secret") && !sealed.contains("alice") && !sealed.contains("example.com"))

            // Both edit; the Mac's reaches cloudd first, and the iPhone's stale tag loses.
            var macEdit = original
            macEdit.data = Data("from the Mac".utf8)
            await drivers[1].handle(.localChange(uuid: original.uuid, old: original, new: macEdit))
            var phoneEdit = original
            phoneEdit.data = Data("from the iPhone".utf8)
            await drivers[0].handle(.localChange(uuid: original.uuid, old: original, new: phoneEdit))
            #expect(stores[0].secret(original.uuid) == "from the Mac")
            #expect(await drivers[0].notes.contains { $0.uuid == original.uuid && $0.note == .overwrittenByServer })

            // A delete on the Mac reaches the iPhone.
            await drivers[1].handle(.localChange(uuid: original.uuid, old: macEdit, new: nil))
            await drivers[0].handle(.zoneChanged)
            #expect(stores[0].secret(original.uuid) == nil)
            let phoneQueue = await drivers[0].engine.outgoing
            let macQueue = await drivers[1].engine.outgoing
            #expect(phoneQueue.isEmpty && macQueue.isEmpty)
        }
    }

    @Test func aRecordSealedWithAnotherKeyIsRefused() throws {
        let item = Self.item("secret")
        let sealed = try ItemSealer(key: SymmetricKey(size: .bits256)).seal(item)
        #expect(throws: ItemSealer.Failure.cannotOpen(item.uuid)) { try ItemSealer(key: SymmetricKey(size: .bits256)).open(sealed, uuid: item.uuid) }
        let key = SymmetricKey(size: .bits256)
        #expect(throws: ItemSealer.Failure.self) { try ItemSealer(key: key).open(try ItemSealer(key: key).seal(item), uuid: UUID()) }
        #expect(try ItemSealer(key: key).open(try ItemSealer(key: key).seal(item), uuid: item.uuid).data == item.data)
    }
}
