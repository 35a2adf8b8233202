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

    /// The latest entries of `app` on `device`, newest last.
    func recent(device: String, app: String, limit: Int) -> [Entry] {
        buffer.withLock { buffer in Array(buffer.recent.filter { $0.device == device && $0.app == app }.suffix(limit)) }
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var lines = Data()
        for entry in entries {
            guard let line = try? encoder.encode(entry) else { continue }
            lines.append(line)
            lines.append(0x0A)
        }
        do {
            try rotateIfFull(file)
            if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: lines)
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
