import Foundation
import KeychainAPI
import ServiceSupport

/// keychaind's audit log: one JSON line per SecItem call and per refused app or device (time,
/// device, app, operation, status, rule), never a value, in `STATE/audit.jsonl`.
typealias KeychainAuditLog = AuditLog<KeychainAuditLine>

/// One of keychaind's decisions as its audit line.
struct KeychainAuditLine: AuditLine {
    let entry: KeychainAPI.AuditEntry

    var time: Date { entry.time }

    func appendJSONLine(to text: inout String, time: String) {
        text += #"{"app":"#
        AuditJSON.appendString(entry.app, to: &text)
        text += #","device":"#
        AuditJSON.appendString(entry.device, to: &text)
        text += #","name":"#
        AuditJSON.appendString(entry.name, to: &text)
        text += #","operation":"#
        AuditJSON.appendString(entry.operation, to: &text)
        if let rule = entry.rule {
            text += #","rule":"#
            AuditJSON.appendString(rule, to: &text)
        }
        if let status = entry.status { text += #","status":\#(status)"# }
        text += #","time":""#
        text += time
        text += "\"}\n"
    }
}

extension AuditLog where Entry == KeychainAuditLine {
    func record(_ entry: KeychainAPI.AuditEntry) {
        record(KeychainAuditLine(entry: entry))
    }

    /// The latest entries on `device`, of `app` and from `since` on when given, newest last.
    func recent(device: String, app: String? = nil, since: Date? = nil, limit: Int) -> [KeychainAPI.AuditEntry] {
        Self.answer(latestPage(limit: limit, where: Self.matching(device: device, app: app, since: since))).entries
    }

    /// The latest entries on `device` (from `since` on when given), newest last, and the latest
    /// sequence number, which a reader goes on from.
    func latest(device: String, since: Date?, limit: Int) -> KeychainAPI.AuditEntries {
        Self.answer(latestPage(limit: limit, where: Self.matching(device: device, app: nil, since: since)))
    }

    /// The entries on `device` after sequence number `after` (from `since` on when given),
    /// oldest first, at most `limit`, with where the next page starts.
    func page(device: String, after: Int64, since: Date?, limit: Int) -> KeychainAPI.AuditEntries {
        Self.answer(page(after: after, limit: limit, where: Self.matching(device: device, app: nil, since: since)))
    }

    private static func matching(device: String, app: String?, since: Date?) -> (KeychainAuditLine) -> Bool {
        { line in
            line.entry.device == device && (app.map { line.entry.app == $0 } ?? true) && (since.map { line.entry.time >= $0 } ?? true)
        }
    }

    private static func answer(_ page: Page) -> KeychainAPI.AuditEntries {
        let entries = page.entries.map { found in
            var entry = found.entry.entry
            entry.sequence = found.sequence
            return entry
        }
        return KeychainAPI.AuditEntries(entries: entries, next: page.next, latest: page.latest, dropped: page.dropped)
    }
}
