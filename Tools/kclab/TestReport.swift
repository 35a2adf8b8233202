import KeychainAPI
import KeychainItems
import KeychainTypes

/// What `kclab test` prints after a run: each refusal a test author must act on, grouped, with
/// the rule's reason and the fix.
enum TestReport {
    /// The statuses explained: a group the app does not hold, and no keychain at all.
    static let explained: Set<SecStatus> = [.missingEntitlement, .notAvailable]
    /// The most decisions read back from keychaind: all it keeps of the latest (its audit route's limit).
    static let window = 4096

    /// The lines for the run's `entries` on `device`, which ended with `status`.
    static func lines(_ entries: [KeychainAPI.AuditEntry], device: String, status: Int32) -> [String] {
        let refused = entries.filter { entry in entry.status.flatMap(SecStatus.init(code:)).map(explained.contains) ?? false }
        guard !refused.isEmpty else {
            let codes = explained.map(\.code).sorted().map(String.init).joined(separator: " or ")
            return ["kclab test: \(device): \(counted(entries)), none refused with \(codes) (exit status \(status))"]
        }
        var lines = ["kclab test: \(device): \(refused.count) of \(counted(entries)) refused (exit status \(status)):"]
        // One line per kind of refusal, in the order first met, with how often it came.
        var counts: [String: Int] = [:]
        var order: [(key: String, entry: KeychainAPI.AuditEntry)] = []
        for entry in refused {
            let key = "\(entry.operation)|\(entry.status ?? 0)|\(entry.rule ?? "")"
            if counts[key] == nil { order.append((key, entry)) }
            counts[key, default: 0] += 1
        }
        for (key, entry) in order {
            let times = counts[key, default: 1]
            lines.append("  \(entry.operation) → \(entry.name) (\(entry.status ?? 0))\(times > 1 ? ", \(times) times" : "")")
            let text = entry.rule ?? ""
            let ruleName = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if !text.isEmpty { lines.append("    why: \(text)") }
            if let rule = SecItemError.Rule(rawValue: ruleName) { lines.append("    fix: \(rule.fix)") }
        }
        lines.append("  more: docs/troubleshooting.md; kclab explain item (with --state DIR to keep the lab)")
        return lines
    }

    /// How many calls the entries are: past the window, only the latest were read.
    private static func counted(_ entries: [KeychainAPI.AuditEntry]) -> String {
        entries.count >= window ? "the latest \(window) keychain calls (keychaind keeps no more)" : "\(entries.count) keychain calls"
    }
}
