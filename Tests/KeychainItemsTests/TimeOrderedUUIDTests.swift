import Foundation
import KeychainItems
import Testing

/// New items' UUIDs: version 7, and ordered by the time they were made.
@Suite struct TimeOrderedUUIDTests {
    static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    @Test func theyAreVersionSevenWithTheTimeInFront() {
        let date = Date(timeIntervalSince1970: 1_764_000_000.123)
        let bytes = Self.bytes(UUID.timeOrdered(at: date))
        #expect(bytes[6] >> 4 == 7, "version 7")
        #expect(bytes[8] >> 6 == 0b10, "RFC 9562 variant")
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_764_000_000_123)
    }

    @Test func laterOnesSortAfterEarlierOnes() {
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        let uuids = (0..<100).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) / 100)) }
        let sorted = uuids.sorted { Self.bytes($0).lexicographicallyPrecedes(Self.bytes($1)) }
        #expect(sorted == uuids)
        #expect(Set(uuids).count == 100)
        #expect(UUID.timeOrdered(at: start) != UUID.timeOrdered(at: start), "the same millisecond still gives different UUIDs")
    }

    @Test func newItemsGetThem() {
        let item = KeychainItem(keychain: "dev", itemClass: .genericPassword, attributes: [:], data: nil)
        #expect(Self.bytes(item.uuid)[6] >> 4 == 7)
    }
}
