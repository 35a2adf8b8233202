public import Histogram

/// What a run, or one worker's share of it, measured, kept raw so that shares add up exactly:
/// HdrHistograms merge without losing a percentile, counts add. The report is made from it.
public struct FleetTally: Sendable, Codable {
    /// Per operation, microseconds.
    public var latencies: [String: Histogram<UInt64>] = [:]
    /// A write's arrival at each other device of its account, microseconds.
    public var convergence = FleetTally.histogram()
    /// The same for the writes made once every device's start was over: the steady state.
    public var afterStart = FleetTally.histogram()
    /// Seconds from the run's start until every device's start was over (the last of its first
    /// fetch, app setup and install); nil when some device's never was.
    public var startSeconds: Double?
    /// Writes every other device of their account saw, and writes some device had not.
    public var converged = 0
    public var pending = 0
    public var errors: [String: Int] = [:]
    /// SecItem calls keychaind answered, by function and OSStatus name.
    public var statuses: [String: [String: Int]] = [:]
    public var audit = FleetReport.Audit(acknowledged: 0, lost: 0, unreadableAccounts: 0)
    /// The devices measured, and the resident memory of the processes that ran them, before the
    /// devices were made and at the end.
    public var devices = 0
    public var residentBeforeBytes = 0
    public var residentAfterBytes = 0

    public init() {}

    /// The longest latency recorded: 10 minutes.
    static let highest: UInt64 = 600_000_000

    static func histogram() -> Histogram<UInt64> {
        Histogram(highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
    }

    /// Adds another share's figures to these.
    public mutating func add(_ other: FleetTally) {
        for (operation, histogram) in other.latencies { latencies[operation, default: Self.histogram()].add(histogram) }
        convergence.add(other.convergence)
        afterStart.add(other.afterStart)
        // The whole fleet had started once every share had.
        startSeconds = devices == 0 ? other.startSeconds : startSeconds.flatMap { mine in other.startSeconds.map { max(mine, $0) } }
        converged += other.converged
        pending += other.pending
        errors.merge(other.errors, uniquingKeysWith: +)
        statuses.merge(other.statuses) { $0.merging($1, uniquingKeysWith: +) }
        audit.acknowledged += other.audit.acknowledged
        audit.lost += other.audit.lost
        audit.unreadableAccounts += other.audit.unreadableAccounts
        devices += other.devices
        residentBeforeBytes += other.residentBeforeBytes
        residentAfterBytes += other.residentAfterBytes
    }
}
