/// A fault a fleet run causes while its devices work (`kclab fleet --fault KIND@SECONDS`), in the
/// cloud it started itself: the figures then say what the fault cost (docs/scale.md).
public struct FleetFault: Sendable, Codable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// `kill -9` the first cloudd replica: its devices move to the others.
        case killReplica = "kill-replica"
        /// Crash the first PostgreSQL shard (immediate shutdown) and start it again 5 seconds
        /// later: its accounts get retryable errors meanwhile, the others carry on.
        case restartShard = "restart-shard"
        /// Freeze the first PostgreSQL shard (SIGSTOP) for 12 s: it neither answers nor refuses,
        /// so its accounts' calls fail retryably once cloudd's round-trip limit (10 s) passes,
        /// while the other shards' accounts carry on, on threads of their own.
        case pauseShard = "pause-shard"
        /// Crash the first shard's primary and promote its synchronous standby (`pg_ctl
        /// promote`): cloudd reconnects to the new primary.
        case promoteStandby = "promote-standby"
    }

    public var kind: Kind
    /// Seconds after the run's start.
    public var atSeconds: Int

    public init(kind: Kind, atSeconds: Int) {
        self.kind = kind
        self.atSeconds = atSeconds
    }

    /// Reads `KIND@SECONDS` (`kill-replica@20`), or `KIND` alone for a third of the way into a
    /// run of `seconds`.
    public init(parsing text: String, seconds: Int) throws(FleetPlan.Invalid) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard let name = parts.first, let kind = Kind(rawValue: name) else {
            throw FleetPlan.Invalid(
                description: "unknown fault \(text.prefix(40)): say one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), with @SECONDS"
            )
        }
        let at = parts.count == 2 ? Int(parts[1]) : seconds / 3
        guard let at, (0..<seconds).contains(at) else {
            throw FleetPlan.Invalid(description: "a fault's time must be a whole second within the run's \(seconds) s: \(text.prefix(40))")
        }
        self.init(kind: kind, atSeconds: at)
    }

    public var description: String { "\(kind.rawValue)@\(atSeconds)" }
}
