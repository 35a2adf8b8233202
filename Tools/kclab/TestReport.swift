import KeychainAPI
import KeychainItems
import KeychainTypes

/// What `kclab test` prints after a run: each refusal a test author must act on, grouped, with
/// the rule's reason and the fix.
enum TestReport {
    /// The statuses explained: a group the app does not hold, and no keychain at all.
    static let explained: Set<SecStatus> = [.missingEntitlement, .notAvailable]

    /// The lines for the run's `entries` on `device`, which ended with `status`.
    static func lines(_ entries: [KeychainAPI.AuditEntry], device: String, status: Int32) -> [String] {
        let refused = entries.filter { entry in entry.status.flatMap(SecStatus.init(code:)).map(explained.contains) ?? false }
        guard !refused.isEmpty else {
            let codes = explained.map(\.code).sorted().map(String.init).joined(separator: " or ")
            return ["kclab test: \(device): \(entries.count) keychain calls, none refused with \(codes) (exit status \(status))"]
        }
        var lines = ["kclab test: \(device): \(refused.count) of \(entries.count) keychain calls refused (exit status \(status)):"]
        var seen: [String: Int] = [:]
        var order: [KeychainAPI.AuditEntry] = []
        for entry in refused {
            let key = "\(entry.operation)|\(entry.status ?? 0)|\(entry.rule ?? "")"
            if seen[key] == nil { order.append(entry) }
            seen[key, default: 0] += 1
        }
        for entry in order {
            let times = seen["\(entry.operation)|\(entry.status ?? 0)|\(entry.rule ?? "")", default: 1]
            lines.append("  \(entry.operation) → \(entry.name) (\(entry.status ?? 0))\(times > 1 ? ", \(times) times" : "")")
            let text = entry.rule ?? ""
            let ruleName = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if !text.isEmpty { lines.append("    why: \(text)") }
            if let rule = SecItemError.Rule(rawValue: ruleName) { lines.append("    fix: \(rule.fix)") }
        }
        lines.append("  more: docs/troubleshooting.md; kclab explain item (with --state DIR to keep the lab)")
        return lines
    }
}
