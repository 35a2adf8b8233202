import Foundation
import KeychainAPI
import Logging
import ServiceLifecycle
import Synchronization

/// keychaind's audit log: one JSON line per SecItem call and per refused app or device (time,
/// device, app, operation, status, rule), never a value. Lines are buffered and appended to
/// `STATE/audit.jsonl` (owner-only, as every state file) every 200 ms, so the calls do not wait on
/// the disk; past 64 MiB the file moves to `audit.jsonl.1`. The last lines are kept in memory too,
/// for `kclab explain`.
final class AuditLog: Service, Sendable {
    typealias Entry = KeychainAPI.AuditEntry

    private struct Buffer {
        var pending: [Entry] = []
        var recent: [Entry] = []
    }

    /// How many entries ``recent(device:app:limit:)`` looks through.
    static let recentCapacity = 4096
    /// Past this size the file is moved aside and a new one started.
    static let maximumFileSize = 64 << 20

    let file: URL?
    private let buffer = Mutex(Buffer())
    private let logger: Logger

    /// An audit log written to `file`; with nil, entries are only kept in memory.
    init(file: URL?, logger: Logger) {
        self.file = file
        self.logger = logger
    }

    func record(_ entry: Entry) {
        buffer.withLock { buffer in
            if file != nil { buffer.pending.append(entry) }
            buffer.recent.append(entry)
            if buffer.recent.count > Self.recentCapacity * 2 { buffer.recent.removeFirst(buffer.recent.count - Self.recentCapacity) }
        }
    }

    /// The latest entries on `device`, of `app` and from `since` on when given, newest last.
    func recent(device: String, app: String? = nil, since: Date? = nil, limit: Int) -> [Entry] {
        buffer.withLock { buffer in
            let kept = buffer.recent.filter { entry in
                entry.device == device && (app.map { entry.app == $0 } ?? true) && (since.map { entry.time >= $0 } ?? true)
            }
            return Array(kept.suffix(limit))
        }
    }

    /// Writes the buffered lines every 200 ms until graceful shutdown, then the last ones.
    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(200))
            flush()
        }
        flush()
    }

    func flush() {
        guard let file else { return }
        let entries = buffer.withLock { buffer in
            defer { buffer.pending.removeAll(keepingCapacity: true) }
            return buffer.pending
        }
        guard !entries.isEmpty else { return }
        var lines = ""
        lines.reserveCapacity(entries.count * 200)
        var clock = SecondStamp()
        for entry in entries { Self.appendLine(entry, to: &lines, clock: &clock) }
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

    /// One entry as a JSON line, keys sorted, written by hand: JSONEncoder cost more than the
    /// calls it recorded under load.
    static func appendLine(_ entry: Entry, to text: inout String, clock: inout SecondStamp) {
        text += #"{"app":"#
        appendString(entry.app, to: &text)
        text += #","device":"#
        appendString(entry.device, to: &text)
        text += #","name":"#
        appendString(entry.name, to: &text)
        text += #","operation":"#
        appendString(entry.operation, to: &text)
        if let rule = entry.rule {
            text += #","rule":"#
            appendString(rule, to: &text)
        }
        if let status = entry.status { text += #","status":\#(status)"# }
        text += #","time":""#
        text += clock.text(for: entry.time)
        text += "\"}\n"
    }

    private static func appendString(_ value: String, to text: inout String) {
        text += "\""
        // Most values need no escape: copied whole.
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

    private func rotateIfFull(_ file: URL) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size > Self.maximumFileSize else { return }
        let old = file.appendingPathExtension("1")
        try? FileManager.default.removeItem(at: old)
        try FileManager.default.moveItem(at: file, to: old)
    }
}
