import Foundation
import Logging
import ServiceSupport
import Testing

/// A daemon's audit log in memory read a page at a time after a sequence number, as `kclab test`
/// reads keychaind's: every entry once and in order, and the entries memory no longer kept
/// counted rather than passed over.
@Suite struct AuditLogPageTests {
    struct Line: AuditLine {
        var time = Date()
        let device: String
        let number: Int

        func appendJSONLine(to text: inout String, time: String) {}
    }

    typealias Log = AuditLog<Line>

    /// What a reader read, passing each page's `next` on as the next `after`.
    struct Read {
        var lines: [Log.Sequenced] = []
        var dropped: Int64 = 0
        var next: Int64 = 0
    }

    static func log(_ numbers: ClosedRange<Int>, device: (Int) -> String = { _ in "a" }) -> Log {
        let log = Log(file: nil, logger: Logger(label: "test.audit"))
        record(numbers, in: log, device: device)
        return log
    }

    static func record(_ numbers: ClosedRange<Int>, in log: Log, device: (Int) -> String = { _ in "a" }) {
        for number in numbers { log.record(Line(device: device(number), number: number)) }
    }

    /// The pages after `after` of `device`'s lines, up to the latest entry.
    static func read(_ log: Log, after: Int64, device: String = "a", limit: Int = 1000, into read: inout Read) {
        var after = after
        while true {
            let page = log.page(after: after, limit: limit) { $0.device == device }
            #expect(page.entries.count <= limit)
            read.lines += page.entries
            read.dropped += page.dropped
            read.next = page.next
            guard page.next < page.latest else { return }
            #expect(page.next > after, "each page moves on")
            after = page.next
        }
    }

    static func read(_ log: Log, after: Int64, device: String = "a", limit: Int = 1000) -> Read {
        var result = Read()
        read(log, after: after, device: device, limit: limit, into: &result)
        return result
    }

    @Test func aReaderFromARunsStartReadsEveryLaterEntryOfItsDeviceOnce() {
        let log = Self.log(1...300)
        let start = log.latestPage(limit: 1) { _ in true }.latest
        #expect(start == 300, "the entries are numbered from 1 in the order recorded")
        Self.record(301...3300, in: log) { $0 % 3 == 0 ? "b" : "a" }

        let read = Self.read(log, after: start, limit: 500)
        #expect(read.lines.map(\.entry.number) == (301...3300).filter { $0 % 3 != 0 }, "another device's entries are skipped")
        #expect(read.lines.allSatisfy { $0.sequence == Int64($0.entry.number) })
        #expect(read.dropped == 0)
        #expect(read.next == 3300, "the reader ends at the latest entry, another device's")
        #expect(log.page(after: 3300, limit: 500) { _ in true }.entries.isEmpty)
    }

    @Test func entriesGoneFromMemoryAreCountedNotPassedOver() {
        let log = Self.log(1...10_000)
        let read = Self.read(log, after: 0)
        #expect(read.dropped > 0, "memory keeps \(Log.recentCapacity) entries or more, not 10,000")
        #expect(read.dropped + Int64(read.lines.count) == 10_000, "each entry is read or counted as dropped")
        #expect(read.lines.first?.sequence == read.dropped + 1)
        #expect(read.lines.count >= Log.recentCapacity)

        // A reader whose start is still in memory misses nothing.
        let recent = Self.read(log, after: 9_000, limit: 64)
        #expect(recent.dropped == 0 && recent.lines.map(\.entry.number) == Array(9_001...10_000))
    }

    @Test func aReaderThatKeepsUpReadsEveryEntryWhateverTheirNumber() {
        let log = Self.log(1...10)
        var read = Read(next: 10)
        for block in 0..<25 {
            Self.record((11 + block * 1000)...(10 + (block + 1) * 1000), in: log)
            Self.read(log, after: read.next, into: &read)
        }
        #expect(read.lines.count == 25_000 && read.dropped == 0)
        #expect(read.lines.map(\.entry.number) == Array(11...25_010))
    }

    @Test func aPageLooksPastOtherDevicesEntriesAndSaysWhereItStopped() {
        let log = Self.log(1...5000) { _ in "b" }
        Self.record(5001...5001, in: log)
        let page = log.page(after: 0, limit: 10) { $0.device == "a" }
        #expect(page.entries.map(\.sequence) == [5001] && page.next == 5001 && page.latest == 5001)

        // A full page stops at its last entry, for the next page to go on from there.
        let full = log.page(after: 4000, limit: 3) { _ in true }
        #expect(full.entries.map(\.sequence) == [4001, 4002, 4003] && full.next == 4003 && full.latest == 5001)
    }

    @Test func theLatestPageIsNewestLastAndANumberPastTheLatestReadsNothing() {
        let log = Self.log(1...20) { $0.isMultiple(of: 2) ? "a" : "b" }
        let latest = log.latestPage(limit: 3) { $0.device == "a" }
        #expect(latest.entries.map(\.sequence) == [16, 18, 20] && latest.next == 20 && latest.latest == 20)
        #expect(log.recent(limit: 3) { $0.device == "a" }.map(\.number) == [16, 18, 20])

        // A number from before the daemon started again: nothing, and the reader learns the latest.
        let ahead = log.page(after: 50_000, limit: 10) { _ in true }
        #expect(ahead.entries.isEmpty && ahead.next == 50_000 && ahead.latest == 20 && ahead.dropped == 0)
    }
}
