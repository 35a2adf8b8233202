import Decisions
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import ServiceSupport

/// keychaind's audit log: one JSON line per decision (``KeychainDecision``: a SecItem call, a
/// refused app or device), never a value, in `STATE/audit.jsonl`.
typealias KeychainAuditLog = AuditLog<KeychainAuditLine>

/// One of keychaind's decisions as its audit line: the decision's own JSON form, keys sorted,
/// written by hand (a JSONEncoder per call costs more than the call).
struct KeychainAuditLine: AuditLine {
    let entry: KeychainDecision

    var time: Date { entry.time }

    func appendJSONLine(to text: inout String, time: String) {
        text += #"{"app":"#
        AuditJSON.appendString(entry.app, to: &text)
        if let appID = entry.appID {
            text += #","appID":"#
            AuditJSON.appendString(appID, to: &text)
        }
        text += #","call":"#
        AuditJSON.appendString(entry.call, to: &text)
        text += #","device":"#
        AuditJSON.appendString(entry.device, to: &text)
        if let fix = entry.fix {
            text += #","fix":"#
            AuditJSON.appendString(fix, to: &text)
        }
        text += #","name":"#
        AuditJSON.appendString(entry.name, to: &text)
        if let reason = entry.reason {
            text += #","reason":"#
            AuditJSON.appendString(reason, to: &text)
        }
        if let rule = entry.rule {
            text += #","rule":"#
            AuditJSON.appendString(rule.rawValue, to: &text)
        }
        if let status = entry.status { text += #","status":\#(status.code)"# }
        text += #","time":""#
        text += time
        text += "\"}\n"
    }
}

extension AuditLog where Entry == KeychainAuditLine {
    func record(_ entry: KeychainDecision) {
        record(KeychainAuditLine(entry: entry))
    }

    /// The latest decisions on `device`, of the caller `appID` (an application identifier, or a
    /// system caller's name) and from `since` on when given, newest last.
    func recent(device: String, appID: String? = nil, since: Date? = nil, limit: Int) -> [KeychainDecision] {
        Self.answer(latestPage(limit: limit, where: Self.matching(device: device, appID: appID, since: since))).entries
    }

    /// The latest decisions (on `device`, from `since` on, when given), newest last, and the
    /// latest sequence number, which a reader goes on from.
    func latest(device: String?, since: Date?, limit: Int) -> KeychainAPI.AuditEntries {
        Self.answer(latestPage(limit: limit, where: Self.matching(device: device, appID: nil, since: since)))
    }

    /// The decisions (on `device`, when given) after sequence number `after` (from `since` on
    /// when given), oldest first, at most `limit`, with where the next page starts.
    func page(device: String?, after: Int64, since: Date?, limit: Int) -> KeychainAPI.AuditEntries {
        Self.answer(page(after: after, limit: limit, where: Self.matching(device: device, appID: nil, since: since)))
    }

    private static func matching(device: String?, appID: String?, since: Date?) -> (KeychainAuditLine) -> Bool {
        { line in
            (device.map { line.entry.device == $0 } ?? true) && (appID.map { (line.entry.appID ?? line.entry.app) == $0 } ?? true)
                && (since.map { line.entry.time >= $0 } ?? true)
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
