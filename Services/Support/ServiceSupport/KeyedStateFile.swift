public import Foundation
import Synchronization

/// A value per key (a device), kept in memory and in a file that grows by one JSON line a change
/// (`{"key": K, "value": V}`; no value for a removal), read back at start with the last line of
/// each key winning. Once the lines outnumber the keys (twice over, and at least
/// ``compactionFloor``) the file is written again whole, one line a key, atomically: a change
/// costs one line, not the whole file, so ten thousand devices reporting cost ten thousand lines
/// rather than ten thousand copies of the file. keychaind keeps its device reports and its
/// login keychains' locks this way.
///
/// A file larger than `maximumSize` is not read; an unreadable line (a write cut short) is
/// skipped. A file of the earlier form, one JSON object of every key, is read too.
public final class KeyedStateFile<Value: Codable & Sendable & Equatable>: Sendable {
    private struct State {
        var values: [String: Value]
        /// Lines in the file now.
        var lines: Int
        var handle: FileHandle?
    }

    private struct Line: Codable {
        let key: String
        let value: Value?
    }

    private let state: Mutex<State>
    private let file: URL?

    /// Lines the file may hold before it is rewritten, however few the keys.
    public static var compactionFloor: Int { 1024 }

    public init(file: URL?, maximumSize: Int) {
        self.file = file
        var values: [String: Value] = [:]
        var lines = 0
        if let file, let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, size <= maximumSize,
            let data = try? Data(contentsOf: file)
        {
            (values, lines) = Self.read(data)
        }
        state = Mutex(State(values: values, lines: lines, handle: nil))
    }

    /// Every key's value in `data`, and how many lines it holds.
    private static func read(_ data: Data) -> ([String: Value], Int) {
        var values: [String: Value] = [:]
        var lines = 0
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            lines += 1
            if let entry = try? decoder.decode(Line.self, from: line) {
                values[entry.key] = entry.value
            } else if lines == 1, let all = try? decoder.decode([String: Value].self, from: line) {
                values = all
                // The earlier form is written again as lines at the next change.
                lines = Int.max / 2
            }
        }
        return (values, lines)
    }

    public subscript(key: String) -> Value? {
        state.withLock { $0.values[key] }
    }

    /// How many keys hold a value.
    public var count: Int { state.withLock { $0.values.count } }

    /// Changes `key`'s value and, when it changed, records it in the file; returns what `change`
    /// returns.
    public func update<T>(_ key: String, _ change: (inout Value?) -> T) -> T {
        state.withLock { state in
            let before = state.values[key]
            var value = before
            let result = change(&value)
            guard value != before else { return result }
            state.values[key] = value
            guard let file else { return result }
            if state.lines > max(Self.compactionFloor, 2 * state.values.count) {
                rewrite(&state, file: file)
            } else if let line = try? JSONEncoder().encode(Line(key: key, value: value)) {
                append(line, to: &state, file: file)
            }
            return result
        }
    }

    private func append(_ line: Data, to state: inout State, file: URL) {
        if state.handle == nil {
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            state.handle = try? FileHandle(forWritingTo: file)
            _ = try? state.handle?.seekToEnd()
        }
        guard let handle = state.handle else { return }
        do {
            try handle.write(contentsOf: line + [UInt8(ascii: "\n")])
            state.lines += 1
        } catch {
            try? handle.close()
            state.handle = nil
        }
    }

    /// Writes the file again, a line a key, in place of the old one.
    private func rewrite(_ state: inout State, file: URL) {
        let encoder = JSONEncoder()
        var data = Data()
        for (key, value) in state.values {
            guard let line = try? encoder.encode(Line(key: key, value: value)) else { continue }
            data += line
            data.append(UInt8(ascii: "\n"))
        }
        try? state.handle?.close()
        state.handle = nil
        guard (try? data.write(to: file, options: .atomic)) != nil else { return }
        state.lines = state.values.count
    }
}
