import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
import Testing

/// CKKS's rules, played by devices whose engines reach one cloud's zones (no network: each
/// action the engine asks for is run at once; a push is the test's `.zoneChanged`).
@Suite struct SyncEngineTests {
    let zones = CloudZones(storage: InMemoryZoneStorage())

    func online(_ count: Int) -> [TestDevice] {
        (0..<count).map { _ in
            let device = TestDevice(zones)
            device.handle(.wentOnline)
            return device
        }
    }

    @Test func aWriteReachesTheOtherDevicesOfTheAccount() {
        let devices = online(3)
        let item = password("alice", "s3cret")
        devices[0].write(item)
        for device in devices.dropFirst() { device.handle(.zoneChanged) }
        #expect(devices.allSatisfy { $0.secret("alice") == "s3cret" })
        #expect(devices[0].engine.outgoing.isEmpty)
        // Another account's zone sees nothing.
        let stranger = TestDevice(zones, account: "bob@example.com")
        stranger.handle(.wentOnline)
        #expect(stranger.keychain.isEmpty)
    }

    @Test func editsMadeOfflineUploadOnReturn() {
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        mac.handle(.wentOnline)
        phone.write(password("alice", "written offline"))
        #expect(phone.engine.outgoing.count == 1, "queued while offline")
        phone.handle(.wentOnline)
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "written offline")
        #expect(phone.engine.outgoing.isEmpty)
    }

    @Test func changesTakenTogetherUploadInBatchesOfAHundred() {
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        mac.handle(.wentOnline)
        let items = (0..<250).map { password("user-\($0)", "s3cret-\($0)") }
        phone.handle(.localChanges(items.map { LocalChange(uuid: $0.uuid, old: nil, new: $0) }))
        for item in items { phone.keychain[item.uuid] = item }
        #expect(phone.engine.outgoing.count == 250 && phone.uploads.isEmpty, "offline: queued, nothing sent")
        phone.handle(.wentOnline)
        #expect(phone.uploads == [100, 100, 50], "SecCKKSOutgoingQueueItemsAtOnce per batch, the next once one is answered")
        mac.handle(.zoneChanged)
        #expect(mac.keychain.count == 250)
    }

    @Test func aStaleTagLosesToTheServersCopy() {
        let devices = online(2)
        let (phone, mac) = (devices[0], devices[1])
        let item = password("alice", "v1")
        phone.write(item)
        mac.handle(.zoneChanged)
        // The Mac's edit reaches the cloud; the iPhone has not fetched it when it edits too.
        var macEdit = item
        macEdit.data = Data("from the Mac".utf8)
        mac.write(macEdit)
        var phoneEdit = item
        phoneEdit.data = Data("from the iPhone".utf8)
        phone.write(phoneEdit)
        #expect(phone.secret("alice") == "from the Mac", "the server's copy wins")
        #expect(phone.notes(for: item.uuid).contains(.overwrittenByServer))
        #expect(phone.engine.outgoing.isEmpty, "the local edit is discarded for good")
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "from the Mac")
    }

    @Test func aRemoteChangeDropsAPendingLocalEdit() {
        let devices = online(2)
        let (phone, mac) = (devices[0], devices[1])
        let item = password("alice", "v1")
        phone.write(item)
        mac.handle(.zoneChanged)
        phone.handle(.wentOffline)
        var offline = item
        offline.data = Data("edited offline".utf8)
        phone.write(offline)
        var macEdit = item
        macEdit.data = Data("edited on the Mac".utf8)
        mac.write(macEdit)
        phone.handle(.wentOnline)
        #expect(phone.secret("alice") == "edited on the Mac")
        #expect(phone.notes(for: item.uuid).contains(.localEditDiscarded))
    }

    @Test func deletesReachEveryDeviceAndWinOverPendingEdits() {
        let devices = online(3)
        let (phone, mac, pad) = (devices[0], devices[1], devices[2])
        let item = password("alice", "v1")
        phone.write(item)
        mac.handle(.zoneChanged)
        pad.handle(.zoneChanged)
        pad.handle(.wentOffline)
        var padEdit = item
        padEdit.data = Data("edited on the iPad".utf8)
        pad.write(padEdit)
        mac.delete(item.uuid)
        phone.handle(.zoneChanged)
        pad.handle(.wentOnline)
        #expect(phone.keychain.isEmpty && pad.keychain.isEmpty && mac.keychain.isEmpty)
        #expect(pad.engine.outgoing.isEmpty)
    }

    @Test func classAChangesWaitForTheUnlock() {
        let devices = online(2)
        let (phone, pad) = (devices[0], devices[1])
        pad.handle(.locked)
        let lockedItem = password("alice", "class A", protection: .whenUnlocked)
        let anytime = password("bob", "class C", protection: .afterFirstUnlock)
        phone.write(lockedItem)
        phone.write(anytime)
        pad.handle(.zoneChanged)
        #expect(pad.secret("bob") == "class C")
        #expect(pad.secret("alice") == nil && pad.engine.held.count == 1)
        #expect(pad.notes(for: lockedItem.uuid).contains(.heldWhileLocked))
        pad.handle(.unlocked)
        #expect(pad.secret("alice") == "class A" && pad.engine.held.isEmpty)
    }

    /// A class-A item cannot be written while locked, but it can be deleted: the delete cancels
    /// the change held for the unlock, and reaches the other devices.
    @Test func aLocalChangeCancelsTheItemsHeldIncomingChange() {
        let devices = online(2)
        let (phone, pad) = (devices[0], devices[1])
        let item = password("alice", "v1", protection: .whenUnlocked)
        phone.write(item)
        pad.handle(.zoneChanged)
        pad.handle(.locked)
        var edit = item
        edit.data = Data("v2".utf8)
        phone.write(edit)
        pad.handle(.zoneChanged)
        #expect(pad.engine.held[item.uuid] != nil && pad.secret("alice") == "v1")
        pad.delete(item.uuid)
        #expect(pad.engine.held[item.uuid] == nil)
        pad.handle(.unlocked)
        #expect(pad.keychain.isEmpty, "the held change is not applied after the delete")
        phone.handle(.zoneChanged)
        #expect(phone.keychain.isEmpty)
    }

    /// One item added on two devices under two UUIDs: every device keeps the lower UUID, and
    /// the cloud ends with it alone, whichever device held it.
    @Test(arguments: [true, false])
    func theLowerUUIDWins(phoneLower: Bool) throws {
        let low = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        let high = try #require(UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000001"))
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        mac.handle(.wentOnline)
        phone.write(password("alice", "phone", uuid: phoneLower ? low : high))
        mac.write(password("alice", "mac", uuid: phoneLower ? high : low))
        phone.handle(.wentOnline)
        mac.handle(.zoneChanged)
        phone.handle(.zoneChanged)
        for device in [phone, mac] {
            #expect(Array(device.keychain.keys) == [low], "\(device.keychain.keys)")
        }
        #expect(try zones.storage.record(high, in: phone.zone) == nil)
        #expect(try zones.storage.record(low, in: phone.zone) != nil)
    }

    @Test func aChangeOfTheModificationDateOnlyStaysLocal() {
        let devices = online(1)
        let item = password("alice", "v1")
        devices[0].write(item)
        let token = devices[0].engine.token
        devices[0].write(password("alice", "v1", uuid: item.uuid, modified: 9999))
        #expect(devices[0].notes(for: item.uuid) == [.notUploadedOnlyModificationDate])
        #expect(devices[0].engine.token == token)
        #expect((try? zones.changes(in: devices[0].zone, since: nil).changes.count) == 1)
    }

    @Test func aFailedUploadIsRetriedAfterThirtyMinutes() {
        let devices = online(2)
        devices[0].failNextUpload = true
        devices[0].write(password("alice", "v1"))
        #expect(devices[0].retries == 1 && devices[0].engine.outgoing.count == 1)
        #expect(SyncEngine.retryDelay == .seconds(1800))
        #expect(devices[0].engine.lastError == "HTTP 503")
        // Further writes wait for the retry rather than hammering the server.
        devices[0].write(password("bob", "v1"))
        #expect(devices[0].engine.outgoing.count == 2 && !devices[0].engine.uploading)
        devices[0].handle(.retryDue)
        devices[1].handle(.zoneChanged)
        #expect(devices[1].secret("alice") == "v1" && devices[1].secret("bob") == "v1")
    }

    @Test func aFullRefetchRemovesWhatTheCloudNoLongerHas() {
        let devices = online(2)
        let (phone, mac) = (devices[0], devices[1])
        let kept = password("bob", "kept")
        let gone = password("alice", "gone")
        phone.write(kept)
        phone.write(gone)
        mac.handle(.zoneChanged)
        mac.handle(.wentOffline)
        phone.delete(gone.uuid)
        mac.handle(.wentOnline)
        #expect(mac.secret("alice") == nil)
        // The token expired: everything is fetched again, and the mirror set right.
        mac.handle(.fetchFailed(tokenExpired: true, reason: "token expired"))
        #expect(mac.secret("bob") == "kept" && mac.keychain.count == 1)
    }

    @Test func aResumedDeviceFetchesOnlyWhatChanged() {
        let devices = online(2)
        for index in 0..<7 { devices[0].write(password("user\(index)", "v")) }
        devices[1].handle(.zoneChanged)
        #expect(devices[1].keychain.count == 7, "fetched in pages of 3")
        let token = devices[1].engine.token
        devices[1].handle(.wentOffline)
        devices[0].write(password("late", "v"))
        devices[1].handle(.wentOnline)
        #expect(devices[1].keychain.count == 8)
        #expect(devices[1].engine.token != token)
    }

    /// The device's own upload, fetched back, is no remote change: an edit made offline since
    /// stays queued and uploads (only a record with another change tag drops it).
    @Test func fetchingItsOwnUploadBackKeepsAnOfflineEdit() {
        let devices = online(2)
        let (phone, mac) = (devices[0], devices[1])
        var item = password("alice", "v1")
        phone.write(item)
        phone.handle(.wentOffline)
        item.data = Data("edited offline".utf8)
        phone.write(item)
        phone.handle(.wentOnline)
        #expect(phone.notes(for: item.uuid).isEmpty, "\(phone.notes)")
        #expect(phone.engine.outgoing.isEmpty)
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "edited offline")
    }
}
