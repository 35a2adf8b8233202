import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
import Testing

/// How pending changes merge before they are uploaded (CKKSOutgoingQueueEntry.m, +withItem:).
@Suite struct OutgoingQueueTests {
    let uuid = UUID()

    @Test func addThenModifyIsAnAdd() {
        var queue = OutgoingQueue()
        let first = password("a", "one", uuid: uuid)
        let second = password("a", "two", uuid: uuid, modified: 2000)
        #expect(queue.enqueue(uuid: uuid, old: nil, new: first, inCloud: false) == nil)
        #expect(queue.enqueue(uuid: uuid, old: first, new: second, inCloud: false) == nil)
        #expect(queue[uuid]?.action == .add && queue[uuid]?.item == second)
        #expect(queue.count == 1)
    }

    @Test func addThenDeleteBeforeUploadIsNothing() {
        var queue = OutgoingQueue()
        let item = password("a", "one", uuid: uuid)
        _ = queue.enqueue(uuid: uuid, old: nil, new: item, inCloud: false)
        _ = queue.enqueue(uuid: uuid, old: item, new: nil, inCloud: false)
        #expect(queue.isEmpty)
        // Once the cloud has it, the delete must go up.
        _ = queue.enqueue(uuid: uuid, old: nil, new: item, inCloud: false)
        _ = queue.enqueue(uuid: uuid, old: item, new: nil, inCloud: true)
        #expect(queue[uuid]?.action == .delete)
    }

    @Test func deleteThenAddIsAModify() {
        var queue = OutgoingQueue()
        let item = password("a", "one", uuid: uuid)
        _ = queue.enqueue(uuid: uuid, old: item, new: nil, inCloud: true)
        _ = queue.enqueue(uuid: uuid, old: nil, new: item, inCloud: true)
        #expect(queue[uuid]?.action == .modify)
    }

    @Test func aChangeOfTheModificationDateOnlyIsNotUploaded() {
        var queue = OutgoingQueue()
        let item = password("a", "one", uuid: uuid)
        #expect(queue.enqueue(uuid: uuid, old: item, new: password("a", "one", uuid: uuid, modified: 5000), inCloud: true) == .onlyModificationDate)
        #expect(queue.isEmpty)
    }

    @Test func aRecordOfOneMebibyteIsRefused() {
        var queue = OutgoingQueue()
        var big = password("a", "", uuid: uuid)
        big.data = Data(count: OutgoingQueue.maximumRecordSize)
        guard case .tooLarge(let size)? = queue.enqueue(uuid: uuid, old: nil, new: big, inCloud: false) else {
            Issue.record("a 1 MiB record was queued")
            return
        }
        #expect(size >= OutgoingQueue.maximumRecordSize && queue.isEmpty)
    }

    @Test func entriesKeepTheOrderOfTheirFirstChange() {
        var queue = OutgoingQueue()
        let uuids = (0..<5).map { _ in UUID() }
        for (index, id) in uuids.enumerated() { _ = queue.enqueue(uuid: id, old: nil, new: password("a\(index)", "s", uuid: id), inCloud: false) }
        _ = queue.enqueue(uuid: uuids[0], old: nil, new: password("a0", "t", uuid: uuids[0]), inCloud: false)
        #expect(queue.pending.map(\.uuid) == uuids)
    }
}
