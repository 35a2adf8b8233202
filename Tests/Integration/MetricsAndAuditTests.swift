import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// keychaind's Prometheus metrics and audit log, read from a running lab as an operator would.
@Suite(.serialized) struct MetricsAndAuditTests {
    typealias W = IntegrationWorlds

    @Test func callsAreCountedAndAuditedWithoutTheirValues() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let secret = "audit-secret-\(UUID().uuidString)"
            let app = "com.example.AppOne"
            #expect(
                try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("a"), "v_Data": .data(Data(secret.utf8))]) == 0
            )
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("missing")]) == -25300)
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "agrp": .string("OTHER98765.x")]) == -34018)

            let (metricsURL, lines) = try lab.metrics(lab.state.keychaindEndpoint)
            #expect(metricsURL.hasPrefix("http://127.0.0.1:"), "metrics listen on loopback")
            #expect(lines.contains(#"keychain_calls_total{operation="SecItemAdd",status="errSecSuccess"} 1"#), "\(lines)")
            #expect(lines.contains(#"keychain_calls_total{operation="SecItemCopyMatching",status="errSecItemNotFound"} 1"#))
            #expect(lines.contains(#"keychain_refusals_total{rule="access-group"} 1"#), "the engine's rule, not the status")
            #expect(lines.contains(#"keychain_refusals_total{rule="no-match"} 1"#))
            #expect(lines.contains { $0.hasPrefix(#"keychain_call_duration_seconds_count{operation="SecItemCopyMatching"} 2"#) })
            #expect(lines.contains { $0.hasPrefix("keychain_items{keychain=\"device:") && $0.hasSuffix(" 1.0") })
            let elsewhere = try runTool(
                "curl",
                ["-s", "-o", "/dev/null", "-w", "%{http_code}", metricsURL.replacingOccurrences(of: "/metrics", with: "/other")]
            )
            #expect(elsewhere.stdout == "404")

            // The audit log is written within 200 ms; wait a little longer on a busy machine.
            let audit = lab.state.keychaind.appending(path: "audit.jsonl")
            var text = ""
            for _ in 0..<50 where !text.contains("errSecMissingEntitlement") {
                try await Task.sleep(for: .milliseconds(100))
                text = (try? String(contentsOf: audit, encoding: .utf8)) ?? ""
            }
            let auditLines = text.split(separator: "\n")
            let entries = auditLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(entries.count >= 3 && entries.count == auditLines.count, "every line is one JSON object")
            #expect(
                entries.contains {
                    $0["operation"] as? String == "SecItemAdd" && $0["status"] as? Int == 0 && $0["app"] as? String == "ABCDE12345.com.example.AppOne"
                }
            )
            #expect(
                entries.contains {
                    $0["name"] as? String == "errSecMissingEntitlement" && ($0["rule"] as? String)?.hasPrefix("access-group: ") == true
                }
            )
            #expect(!text.contains(secret) && !text.contains(Data(secret.utf8).base64EncodedString()), "the audit log holds no value")
            let mode = try FileManager.default.attributesOfItem(atPath: audit.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let logs = try lab.kclab(["logs", "audit", "--lines", "1"])
            #expect(
                logs.status == 0 && logs.stdout.split(separator: "\n").count == 1 && logs.stdout.contains("errSecMissingEntitlement"),
                "\(logs.stdout)"
            )
            // A keychain emptied since the last scrape reads 0, not its last count.
            #expect(try lab.kclab(["reset"]).status == 0)
            let emptied = try lab.metrics(lab.state.keychaindEndpoint).lines
            #expect(emptied.contains { $0.hasPrefix("keychain_items{keychain=\"device:") && $0.hasSuffix(" 0.0") }, "\(emptied)")
            let status = try lab.kclab(["status"])
            #expect(status.stdout.contains("metrics: \(metricsURL)"))
        }
    }
}
