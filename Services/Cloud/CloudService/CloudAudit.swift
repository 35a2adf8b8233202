import CloudZones
import Foundation
import ServiceSupport

/// cloudd's audit log: one JSON line per decision about a device's zones (an upload's outcomes,
/// a fetch, a refusal), with the device's UDID and the account from its certificate, and one per
/// zone the operator erased (`kclab reset`), never a record's payload, in `STATE/audit.jsonl`
/// (docs/operating.md).
typealias CloudAuditLog = AuditLog<CloudAuditLine>

struct CloudAuditLine: AuditLine {
    var time = Date()
    /// The device's UDID, from its certificate (for an `erase`, the operator's certificate's name).
    let device: String
    /// The account its certificate names (the account erased); nil when it names none.
    let account: String?
    /// `modify`, `changes`, `wait`, or `erase` (the operator's).
    let operation: String
    let view: String
    /// The HTTP status of the answer.
    let status: Int
    /// What was decided: the outcomes of an upload, the changes fetched, a refusal's code.
    let outcome: String

    /// A decision about `device`'s request on `zone`.
    init(_ device: DeviceIdentity, _ zone: ZoneID, _ operation: String, status: Int, outcome: String) {
        self.init(device: device.udid, account: zone.account, operation: operation, view: zone.view, status: status, outcome: outcome)
    }

    init(device: String, account: String?, operation: String, view: String, status: Int, outcome: String) {
        self.device = device
        self.account = account
        self.operation = operation
        self.view = view
        self.status = status
        self.outcome = outcome
    }

    func appendJSONLine(to text: inout String, time: String) {
        text += "{"
        if let account {
            text += #""account":"#
            AuditJSON.appendString(account, to: &text)
            text += ","
        }
        text += #""device":"#
        AuditJSON.appendString(device, to: &text)
        text += #","operation":"#
        AuditJSON.appendString(operation, to: &text)
        text += #","outcome":"#
        AuditJSON.appendString(outcome, to: &text)
        text += #","status":\#(status),"time":""#
        text += time
        text += #"","view":"#
        AuditJSON.appendString(view, to: &text)
        text += "}\n"
    }
}
