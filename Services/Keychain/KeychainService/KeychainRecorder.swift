import AppIdentifiers
import AppIdentity
import Decisions
import Foundation
import KeychainAPI
import KeychainItems
import KeychainStore
import KeychainTypes
import Metrics
import ServiceMetrics
import Synchronization

/// What keychaind records of every decision, in one place: the audit log's line and the metrics
/// (calls by operation and status, their latency, refusals by rule). Never a value.
struct KeychainRecorder: Sendable {
    let audit: KeychainAuditLog
    private let handles = Handles()

    init(audit: KeychainAuditLog) {
        self.audit = audit
    }

    /// A call the engine answered: its status, the rule behind it, the reason and, for a refusal,
    /// the fix for an app on `platform`.
    func call(device: String, caller: Caller, platform: Platform, function: String, result: SecItemResult, duration: Duration) {
        let status = result.status
        audit.record(.call(device: device, caller: caller, platform: platform, function: function, result: result))
        let metrics = handles.call(function: function, status: status)
        metrics.calls.increment()
        metrics.duration.record(duration)
        if let rule = result.rule, status != .success { handles.refusals(rule).increment() }
    }

    /// A call, or an app's registration, refused before the keychain: `code` is the problem
    /// code (`unknownApp`) or the signature rule (`profile-trust`) that decided; `app` the app's
    /// application identifier when known, else the reference the device gave.
    func refused(device: String, app: String, appID: AppID?, operation: String, code: String, reason: String, fix: String? = nil) {
        audit.record(
            KeychainDecision(
                time: Date(),
                device: device,
                app: appID?.bundleID.rawValue ?? app,
                appID: appID?.rawValue,
                call: operation,
                status: nil,
                name: code,
                reason: reason,
                fix: fix
            )
        )
        Counter(label: "keychain_refusals_total", dimensions: [("rule", code)]).increment()
    }

    /// Sets `keychain_items{keychain}` from the store, before a scrape; a keychain emptied since
    /// the last scrape reads 0 rather than its last count.
    func recordItemCounts(_ store: SQLiteItemStore) async {
        guard let counts = try? await store.counts() else { return }
        let emptied = handles.keychains(now: Set(counts.keys))
        for (keychain, count) in counts {
            Gauge(label: "keychain_items", dimensions: [("keychain", keychain)]).record(count)
        }
        for keychain in emptied {
            Gauge(label: "keychain_items", dimensions: [("keychain", keychain)]).record(0)
        }
    }
}

/// The metric handles of each (operation, status), made once: asking swift-metrics for a handle
/// takes two locks and a lookup by labels, which cost more under 16 concurrent callers than the
/// rest of the recording. Made on first use, after the metrics system is bootstrapped.
private final class Handles: Sendable {
    struct Call {
        let calls: Counter
        let duration: Metrics.Timer
    }

    private struct Key: Hashable {
        let function: String
        let status: Int32
    }

    private let made = Mutex<[Key: Call]>([:])
    private let refused = Mutex<[SecItemError.Rule: Counter]>([:])
    private let counted = Mutex<Set<String>>([])

    /// The keychains counted before that hold no item now; remembers `now` for the next scrape.
    func keychains(now: Set<String>) -> Set<String> {
        counted.withLock { counted in
            defer { counted = now }
            return counted.subtracting(now)
        }
    }

    func call(function: String, status: SecStatus) -> Call {
        made.withLock { made in
            let key = Key(function: function, status: status.code)
            if let handles = made[key] { return handles }
            let handles = Call(
                calls: Counter(label: "keychain_calls_total", dimensions: [("operation", function), ("status", status.name)]),
                duration: Metrics.Timer(label: "keychain_call_duration_seconds", dimensions: [("operation", function)])
            )
            made[key] = handles
            return handles
        }
    }

    /// `keychain_refusals_total{rule}` of an engine rule (`access-group`), made once.
    func refusals(_ rule: SecItemError.Rule) -> Counter {
        refused.withLock { made in
            if let counter = made[rule] { return counter }
            let counter = Counter(label: "keychain_refusals_total", dimensions: [("rule", rule.rawValue)])
            made[rule] = counter
            return counter
        }
    }
}
