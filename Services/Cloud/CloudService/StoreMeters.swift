import CloudZones
import Metrics
import ServiceMetrics

/// One shard's store metrics (docs/operating.md): its calls by outcome, the time each waited for
/// one of the shard's threads, and the time it held it. A shard that hangs shows as waits that
/// grow and calls that end `unavailable`, its label apart from the others'.
struct StoreMeters: Sendable {
    private let ok: Counter
    private let unavailable: Counter
    private let refused: Counter
    private let wait: Metrics.Timer
    private let duration: Metrics.Timer

    init(shard: Int) {
        func calls(_ outcome: String) -> Counter {
            Counter(label: "cloud_store_calls_total", dimensions: [("shard", "\(shard)"), ("outcome", outcome)])
        }
        ok = calls("ok")
        unavailable = calls("unavailable")
        refused = calls("refused")
        wait = Metrics.Timer(label: "cloud_store_wait_duration_seconds", dimensions: [("shard", "\(shard)")])
        duration = Metrics.Timer(label: "cloud_store_call_duration_seconds", dimensions: [("shard", "\(shard)")])
    }

    /// A call waited `duration` for one of the shard's threads.
    func waited(_ duration: Duration) {
        wait.record(duration)
    }

    /// A call held its thread for `held` and ended with `error` (nil: it returned): counted
    /// `unavailable` for a store that could not be reached or was too slow, `refused` for any
    /// other error (an expired token).
    func ended(_ error: (any Error)?, held: Duration) {
        duration.record(held)
        switch error {
        case nil: ok.increment()
        case is ZoneStoreUnavailable: unavailable.increment()
        default: refused.increment()
        }
    }
}
