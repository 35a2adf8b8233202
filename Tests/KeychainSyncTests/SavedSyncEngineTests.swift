import CloudZones
import Foundation
import KeychainItems
import KeychainSync
import Testing

/// A device restarted: its engines come back from what they saved (CKKS keeps its zone state,
/// mirror and queues in the keychain's database), not from nothing.
@Suite struct SavedSyncEngineTests {
    let zones = CloudZones(storage: InMemoryZoneStorage())

    /// The phone edits offline and restarts before it is back: the restored engine resumes from
    /// its change token, and the edit still waits in its queue with the tag it replaces.
    @Test func aRestartedEngineResumesFromItsTokenWithItsQueue() throws {
        let (phone, mac) = (TestDevice(zones), TestDevice(zones))
        phone.handle(.wentOnline)
        mac.handle(.wentOnline)
        let item = password("alice", "v1")
        phone.write(item)
        mac.handle(.zoneChanged)
        phone.handle(.wentOffline)
        var edited = item
        edited.data = Data("edited offline".utf8)
        phone.write(edited)

        let saved = phone.engine.saved
        #expect(saved.token != nil && saved.outgoing.count == 1 && saved.mirror.count == 1)
        var restored = SyncEngine(view: .applications, restoring: saved)
        #expect(restored.saved == saved, "nothing is lost on the way")
        #expect(restored.outgoing.pending.map(\.item) == [edited])
        let first = restored.handle(.wentOnline)
        #expect(first == [.fetchChanges(since: saved.token)], "it fetches from its token, not everything")

        let restarted = TestDevice(zones)
        restarted.engine = SyncEngine(view: .applications, restoring: saved)
        restarted.keychain = phone.keychain
        restarted.handle(.wentOnline)
        #expect(restarted.engine.outgoing.isEmpty, "the edit uploaded with the tag it replaces")
        #expect(restarted.notes.isEmpty, "and did not lose to the server's copy: \(restarted.notes)")
        mac.handle(.zoneChanged)
        #expect(mac.secret("alice") == "edited offline")
    }

    /// A queue restored keeps its order and its merges: an add then an edit is still one add.
    @Test func aRestoredQueueKeepsItsOrderAndMerges() {
        let (first, second) = (password("first", "1"), password("second", "2"))
        var queue = OutgoingQueue()
        _ = queue.enqueue(uuid: second.uuid, old: nil, new: second, inCloud: false)
        _ = queue.enqueue(uuid: first.uuid, old: nil, new: first, inCloud: false)
        var restored = OutgoingQueue(queue.pending)
        #expect(restored.pending.map(\.uuid) == [second.uuid, first.uuid])
        var edited = second
        edited.data = Data("2b".utf8)
        _ = restored.enqueue(uuid: second.uuid, old: second, new: edited, inCloud: false)
        #expect(restored.pending.map(\.action) == [.add, .add])
        _ = restored.enqueue(uuid: first.uuid, old: first, new: nil, inCloud: false)
        #expect(restored.pending.map(\.uuid) == [second.uuid], "an add then a delete never uploaded is nothing")
    }

    /// Of two UUIDs of one item, the higher one's record is mirrored but not found by its key:
    /// that survives a restart, so the lower UUID still wins afterwards.
    @Test func theMirrorsIndexSurvives() {
        let lower = password("alice", "lower", uuid: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        let higher = password("alice", "higher", uuid: UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000001")!)
        let saved = SavedSyncEngine(
            token: "7",
            mirror: [
                (CloudItem(uuid: lower.uuid, changeTag: "a", item: lower), true),
                (CloudItem(uuid: higher.uuid, changeTag: "b", item: higher), false),
            ],
            outgoing: [],
            held: []
        )
        let restored = SyncEngine(view: .applications, restoring: saved)
        #expect(restored.saved == saved)
        #expect(restored.saved.mirror.map(\.indexed) == [true, false])
    }
}
