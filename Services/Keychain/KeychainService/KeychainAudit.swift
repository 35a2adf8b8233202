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
        recent(limit: limit) { line in
            line.entry.device == device && (app.map { line.entry.app == $0 } ?? true) && (since.map { line.entry.time >= $0 } ?? true)
        }.map(\.entry)
    }
}
