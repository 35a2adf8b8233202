import KeychainTypes

/// What `kclab test` prints after a run: every kind of call of it that did not end in
/// errSecSuccess, grouped, with the reason keychaind's audit recorded and the fix; and, when it
/// could not read every call of the run, that it could not, rather than "none refused".
public enum TestReport {
    /// The most audit entries asked for at once (keychaind answers at most 4096).
    public static var pageSize: Int { 1000 }

    /// The lines for `audit`, the run on `device`, whose command ended with `status`.
    public static func lines<Rule>(_ audit: RunAudit<Rule>, device: String, status: Int32) -> [String] {
        let calls = "\(audit.calls) keychain calls"
        let ended = "(exit status \(status))"
        var lines: [String]
        switch (audit.isComplete, audit.refused) {
        case (true, 0): return ["kclab test: \(device): \(calls), none refused \(ended)"]
        case (true, let refused): lines = ["kclab test: \(device): \(refused) of \(calls) refused \(ended):"]
        case (false, 0): lines = ["kclab test: \(device): \(calls) read, none of them refused, but not every call of the run was read \(ended):"]
        case (false, let refused):
            lines = ["kclab test: \(device): \(refused) of the \(calls) read refused, but not every call of the run was read \(ended):"]
        }
        if audit.dropped > 0 {
            lines.append(
                "  unread: \(audit.dropped) audit entries since the run began (of any app) were gone from keychaind's memory before "
                    + "they were read (it keeps the latest 4096 or more); with --state DIR, kclab logs audit --state DIR has every line"
            )
        }
        if audit.restarted { lines.append("  unread: keychaind restarted during the run; what it decided before that was not read") }
        for (refusal, times) in audit.refusals { lines += Self.lines(refusal, times: times) }
        if audit.unlisted > 0 { lines.append("  and \(audit.unlisted) more refused, of other kinds (kclab logs audit --state DIR lists them)") }
        lines.append("  more: docs/troubleshooting.md; kclab explain item (with --state DIR to keep the lab)")
        return lines
    }

    /// One kind of refusal: what was called and what came back, why and what to change.
    private static func lines<Rule>(_ refusal: RunAudit<Rule>.Refusal, times: Int) -> [String] {
        let answer = refusal.status.map { "\(refusal.name) (\($0.code))" } ?? "\(refusal.name) (refused before the keychain)"
        var lines = ["  \(refusal.call) → \(answer)\(times > 1 ? ", \(times) times" : "")"]
        let why = [refusal.rule?.rawValue, refusal.reason].compactMap { $0 }.filter { !$0.isEmpty }
        guard !why.isEmpty else { return lines }
        lines.append("    why: \(why.joined(separator: ": "))")
        if let fix = refusal.fix { lines.append("    fix: \(fix)") }
        return lines
    }
}
