import Foundation
import ServiceSupport
import Testing

/// keychaind's per-device state file: a line a change, read back with the last line of each key
/// winning, compacted once the lines outnumber the keys, and the earlier one-object form still
/// read.
struct KeyedStateFileTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "keyed-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func lines(_ file: URL) throws -> Int {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count
    }

    @Test func aChangeIsOneLineAndTheLastLineWins() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "devices.json")
        let state = KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)
        state.update("a") { $0 = 1 }
        state.update("b") { $0 = 2 }
        state.update("a") { $0 = 3 }
        state.update("a") { $0 = 3 }  // unchanged: nothing written
        state.update("b") { $0 = nil }
        #expect(try lines(file) == 4)
        let again = KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)
        #expect(again["a"] == 3 && again["b"] == nil && again.count == 1)
        // Read back, it appends after what it read.
        again.update("c") { $0 = 4 }
        #expect(try lines(file) == 5)
        #expect(KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)["c"] == 4)
    }

    @Test func manyChangesToFewKeysAreCompacted() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "devices.json")
        let state = KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)
        for round in 1...5_000 { state.update("device-\(round % 10)") { $0 = round } }
        let written = try lines(file)
        #expect(written <= KeyedStateFile<Int>.compactionFloor + 1 && written >= 10, "\(written) lines for 10 keys")
        let again = KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)
        #expect((0..<10).allSatisfy { again["device-\($0)"] == 4_990 + ($0 == 0 ? 10 : $0) })
    }

    @Test func aCutLineIsSkippedAndTheEarlierFormIsRead() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "devices.json")
        try Data(#"{"key":"a","value":1}"#.utf8 + [10] + #"{"key":"b","val"#.utf8).write(to: file)
        let cut = KeyedStateFile<Int>(file: file, maximumSize: 1 << 20)
        #expect(cut["a"] == 1 && cut.count == 1)

        let old = directory.appending(path: "old.json")
        try Data(#"{"a":1,"b":2}"#.utf8).write(to: old)
        let earlier = KeyedStateFile<Int>(file: old, maximumSize: 1 << 20)
        #expect(earlier["a"] == 1 && earlier["b"] == 2)
        earlier.update("c") { $0 = 3 }
        let rewritten = KeyedStateFile<Int>(file: old, maximumSize: 1 << 20)
        let count = try lines(old)
        #expect(rewritten["a"] == 1 && rewritten["b"] == 2 && rewritten["c"] == 3 && count == 3)

        #expect(KeyedStateFile<Int>(file: old, maximumSize: 8).count == 0, "a file over the limit is not read")
    }
}
