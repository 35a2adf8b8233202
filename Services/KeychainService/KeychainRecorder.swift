import Foundation
import KeychainAPI
import KeychainStore
import KeychainTypes
import Metrics
import ServiceMetrics

/// What keychaind records of every decision, in one place: the audit log's line and the metrics
/// (calls by operation and status, their latency, refusals by rule). Never a value.
struct KeychainRecorder: Sendable {
    let audit: AuditLog

    /// A call the engine answered, `status` and the rule behind it.
    func call(device: String, app: String, function: String, status: SecStatus, reason: String?, duration: Duration) {
        audit.record(.init(time: Date(), device: device, app: app, operation: function, status: status.code, name: status.name, rule: reason))
        Counter(label: "keychain_calls_total", dimensions: [("operation", function), ("status", status.name)]).increment()
        Metrics.Timer(label: "keychain_call_duration_seconds", dimensions: [("operation", function)]).record(duration)
        if status != .success { refusal(rule: status.name) }
    }

    /// A call, or an app's registration, refused before the keychain: `code` is the problem
    /// code (`unknownApp`) or the signature rule (`profile-trust`) that decided.
    func refused(device: String, app: String, operation: String, code: String, message: String) {
        audit.record(.init(time: Date(), device: device, app: app, operation: operation, status: nil, name: code, rule: message))
        refusal(rule: code)
    }

    private func refusal(rule: String) {
        Counter(label: "keychain_refusals_total", dimensions: [("rule", rule)]).increment()
    }
}

extension KeychainRecorder {
    /// Sets `keychain_items{keychain}` from the store, before a scrape.
    static func recordItemCounts(_ store: SQLiteItemStore) async {
        guard let counts = try? await store.counts() else { return }
        for (keychain, count) in counts {
            Gauge(label: "keychain_items", dimensions: [("keychain", keychain)]).record(count)
        }
    }
}
