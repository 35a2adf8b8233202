public import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization

/// One decision a daemon records: a JSON object on one line, never a value of a secret.
public protocol AuditLine: Sendable {
    var time: Date { get }
    /// Appends the entry as one JSON object with its keys sorted, `time` given already
    /// formatted, and a newline (``AuditJSON`` writes strings by hand: JSONEncoder cost more than
    /// the calls it recorded under load).
    func appendJSONLine(to text: inout String, time: String)
}

/// A daemon's audit log (keychaind's, cloudd's): one JSON line per decision. Lines are buffered
/// and appended to a file (owner-only, as every state file) every 200 ms, so the decisions do
/// not wait on the disk; past 64 MiB the file moves to `FILE.1`. The last lines are kept in
/// memory too, numbered in the order recorded, for the daemon's own questions (`kclab explain`)
/// and for a reader that goes on from the last number it read (`kclab test`).
public final class AuditLog<Entry: AuditLine>: Service, Sendable {
    private struct Buffer {
        var pending: [Entry] = []
        /// The latest entries, oldest first: `recent[i]` is entry number `dropped + 1 + i`.
        var recent: [Entry] = []
        /// How many entries were recorded before `recent.first`: they are no longer in memory.
        var dropped: Int64 = 0

        /// The latest entry's number (0 before the first).
        var latest: Int64 { dropped + Int64(recent.count) }
    }

    /// How many entries the log keeps in memory at least (at most twice as many).
    public static var recentCapacity: Int { 4096 }
    /// Past this size the file is moved aside and a new one started.
    static var maximumFileSize: Int { 64 << 20 }

    public let file: URL?
    private let buffer = Mutex(Buffer())
    private let logger: Logger

    /// An audit log written to `file`; with nil, entries are only kept in memory.
    public init(file: URL?, logger: Logger) {
        self.file = file
        self.logger = logger
    }

    public func record(_ entry: Entry) {
        buffer.withLock { buffer in
            if file != nil { buffer.pending.append(entry) }
            buffer.recent.append(entry)
            if buffer.recent.count > Self.recentCapacity * 2 {
                let excess = buffer.recent.count - Self.recentCapacity
                buffer.recent.removeFirst(excess)
                buffer.dropped += Int64(excess)
            }
        }
    }

    /// The latest entries that satisfy `predicate`, newest last.
    public func recent(limit: Int, where predicate: (Entry) -> Bool) -> [Entry] {
        latestPage(limit: limit, where: predicate).entries.map(\.entry)
    }

    /// The latest `limit` entries that satisfy `predicate`, oldest first, numbered; a reader
    /// goes on from its `next`, the latest entry's number.
    public func latestPage(limit: Int, where predicate: (Entry) -> Bool) -> Page {
        buffer.withLock { buffer in
            var entries: [Sequenced] = []
            var index = buffer.recent.count
            while index > 0, entries.count < limit {
                index -= 1
                let entry = buffer.recent[index]
                if predicate(entry) { entries.append(Sequenced(sequence: buffer.dropped + 1 + Int64(index), entry: entry)) }
            }
            return Page(entries: Array(entries.reversed()), next: buffer.latest, latest: buffer.latest, dropped: 0)
        }
    }

    /// The entries numbered after `after` that satisfy `predicate`, oldest first, at most
    /// `limit`. A reader that passes each page's `next` as the next `after` reads every entry
    /// once, and learns from `dropped` how many were gone from memory before it came to them.
    public func page(after: Int64, limit: Int, where predicate: (Entry) -> Bool) -> Page {
        let after = max(0, after)
        return buffer.withLock { buffer in
            let dropped = max(0, buffer.dropped - after)
            // Entry `after + 1` is at this index; past the end when the reader is up to date
            // (or holds a number this log never gave, from before a restart).
            var index = Int(clamping: max(0, after - buffer.dropped))
            var entries: [Sequenced] = []
            while index < buffer.recent.count, entries.count < limit {
                let entry = buffer.recent[index]
                index += 1
                if predicate(entry) { entries.append(Sequenced(sequence: buffer.dropped + Int64(index), entry: entry)) }
            }
            // The last entry looked at, matched or not, so that the next page skips it.
            let next = max(after, buffer.dropped + Int64(index))
            return Page(entries: entries, next: next, latest: buffer.latest, dropped: dropped)
        }
    }

    /// Writes the buffered lines every 200 ms until graceful shutdown, then the last ones.
    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(200))
            flush()
        }
        flush()
    }

    public func flush() {
        guard let file else { return }
        let entries = buffer.withLock { buffer in
            defer { buffer.pending.removeAll(keepingCapacity: true) }
            return buffer.pending
        }
        guard !entries.isEmpty else { return }
        var lines = ""
        lines.reserveCapacity(entries.count * 200)
        var clock = AuditJSON.SecondStamp()
        for entry in entries { entry.appendJSONLine(to: &lines, time: clock.text(for: entry.time)) }
        do {
            try rotateIfFull(file)
            if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(lines.utf8))
        } catch {
            logger.error("cannot write the audit log", metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
    }

    private func rotateIfFull(_ file: URL) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size > Self.maximumFileSize else { return }
        let old = file.appendingPathExtension("1")
        try? FileManager.default.removeItem(at: old)
        try FileManager.default.moveItem(at: file, to: old)
    }
}

extension AuditLog {
    /// An entry and its number: a daemon's first entry is 1, each next one 1 more.
    public struct Sequenced: Sendable {
        public let sequence: Int64
        public let entry: Entry
    }

    /// What one read of the log in memory found, and where the next read goes on from.
    public struct Page: Sendable {
        /// The entries found, oldest first.
        public var entries: [Sequenced]
        /// The number to read on from: the last entry the read looked at, matched or not (the
        /// latest once it reached the end).
        public var next: Int64
        /// The latest entry's number, whatever it matched (0 before the first).
        public var latest: Int64
        /// How many entries after the number asked for were no longer in memory (only the file
        /// has them): the log keeps the latest ``AuditLog/recentCapacity`` or more.
        public var dropped: Int64
    }
}

/// What audit lines are written with.
public enum AuditJSON {
    /// `value` as a JSON string; most values need no escape and are copied whole.
    public static func appendString(_ value: String, to text: inout String) {
        text += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// ISO 8601 time to the second, formatted once per second.
    struct SecondStamp {
        private var second: Int = .min
        private var cached = ""

        mutating func text(for date: Date) -> String {
            let now = Int(date.timeIntervalSince1970.rounded(.down))
            if now != second {
                second = now
                cached = Date(timeIntervalSince1970: TimeInterval(now)).formatted(.iso8601)
            }
            return cached
        }
    }
}
