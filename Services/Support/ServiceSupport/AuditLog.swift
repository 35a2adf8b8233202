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
/// memory too, for the daemon's own questions (`kclab explain`).
public final class AuditLog<Entry: AuditLine>: Service, Sendable {
    private struct Buffer {
        var pending: [Entry] = []
        var recent: [Entry] = []
    }

    /// How many entries ``recent(limit:where:)`` looks through.
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
            if buffer.recent.count > Self.recentCapacity * 2 { buffer.recent.removeFirst(buffer.recent.count - Self.recentCapacity) }
        }
    }

    /// The latest entries that satisfy `predicate`, newest last.
    public func recent(limit: Int, where predicate: (Entry) -> Bool) -> [Entry] {
        buffer.withLock { buffer in Array(buffer.recent.filter(predicate).suffix(limit)) }
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
