public import KeychainTypes

/// What `kclab test` read of a daemon's decisions (keychaind's audit) for one app's run on one
/// device: every decision after the run's start, a page at a time, tallied as the pages come (a
/// suite's thousands of calls are counted, not kept), and what it could not read.
public struct RunAudit<Rule: DecisionRule>: Sendable {
    /// One kind of call that did not end in errSecSuccess: the call, its status, the rule and
    /// reason the daemon recorded and the fix it gave.
    public struct Refusal: Hashable, Sendable {
        public var call: String
        /// nil: refused before the keychain (an app keychaind does not know, a bad signature).
        public var status: SecStatus?
        /// The status's name, or the code of a refusal before the keychain.
        public var name: String
        public var rule: Rule?
        public var reason: String?
        public var fix: String?

        public init(_ decision: Decision<Rule>) {
            call = decision.call
            status = decision.status
            name = decision.name
            rule = decision.rule
            reason = decision.reason
            fix = decision.fix
        }
    }

    /// The most kinds of refusal listed; refusals of further kinds are only counted.
    public static var listedKinds: Int { 100 }

    /// The app whose calls are read (its application identifier); the device's other apps are skipped.
    public let app: String
    /// The sequence number of keychaind's audit the next page is read after.
    public private(set) var position: Int64
    /// The app's calls read.
    public private(set) var calls = 0
    /// Each kind of refusal, in the order first met, and how often it came.
    public private(set) var refusals: [(refusal: Refusal, count: Int)] = []
    /// Refusals of the kinds past ``listedKinds``.
    public private(set) var unlisted = 0
    /// How many entries of the run, of any app or device, keychaind no longer kept in memory
    /// when they were asked for.
    public private(set) var dropped: Int64 = 0
    /// Whether keychaind's numbers began again during the run: it restarted, and what it decided
    /// before was not read.
    public private(set) var restarted = false
    private var listed: [Refusal: Int] = [:]

    /// The run of `app` that begins after keychaind's audit entry `start`.
    public init(app: String, start: Int64) {
        self.app = app
        self.position = start
    }

    /// Whether every entry of the run was read.
    public var isComplete: Bool { dropped == 0 && !restarted }

    /// How many of the app's calls did not end in errSecSuccess.
    public var refused: Int { refusals.reduce(unlisted) { $0 + $1.count } }

    /// Takes keychaind's answer to `GET /v1/admin/audit?after=position`; true when it holds more.
    public mutating func take(_ page: DecisionPage<Rule>) -> Bool {
        guard page.latest >= position else {
            // keychaind numbers from 1 again: it started anew, and all it holds is of the run.
            restarted = true
            position = 0
            return page.latest > 0
        }
        dropped += page.dropped
        for entry in page.entries where (entry.appID ?? entry.app) == app {
            calls += 1
            if !entry.succeeded { count(Refusal(entry)) }
        }
        // An answer that does not move on ends the read rather than asking it again forever.
        let moved = page.next > position
        position = max(position, page.next)
        return moved && page.hasMore
    }

    /// Reads the pages `fetch` answers (keychaind's audit after a sequence number) up to
    /// keychaind's latest entry. Pages read before a failure stay taken.
    public mutating func readToEnd(_ fetch: (_ after: Int64) async throws -> DecisionPage<Rule>) async throws {
        while true {
            let page = try await fetch(position)
            guard take(page) else { return }
        }
    }

    private mutating func count(_ refusal: Refusal) {
        if let index = listed[refusal] {
            refusals[index].count += 1
        } else if refusals.count < Self.listedKinds {
            listed[refusal] = refusals.count
            refusals.append((refusal, 1))
        } else {
            unlisted += 1
        }
    }
}
