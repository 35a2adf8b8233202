import Decisions
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import LabControl
import ServiceSupport
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
                    $0["call"] as? String == "SecItemAdd" && $0["status"] as? Int == 0 && $0["app"] as? String == "com.example.AppOne"
                        && $0["appID"] as? String == "ABCDE12345.com.example.AppOne" && $0["fix"] == nil
                }
            )
            #expect(
                entries.contains {
                    $0["name"] as? String == "errSecMissingEntitlement" && $0["rule"] as? String == "access-group"
                        && ($0["reason"] as? String)?.contains("access group") == true
                        && ($0["fix"] as? String)?.hasPrefix("list the group in the app's keychain-access-groups entitlement") == true
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

    /// `GET /v1/admin/audit?after=N`: a device's entries after a sequence number, a page at a
    /// time, as `kclab test` reads every call of a run.
    @Test func theAuditRouteIsReadAPageAtATimeAfterASequenceNumber() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            #expect(try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("before")]) == 0)
            let endpoint = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.state.keychaindEndpoint)) as? [String: Any]
            let admin = ServiceClient(
                baseURL: endpoint?["url"] as? String ?? "",
                tls: try TLSIdentities.administratorClient(world: lab.state.builtWorld)
            )
            let udid = try DeviceClient(state: lab.state, device: W.phone).status().udid
            func get(_ query: String, device: String? = udid) async throws -> KeychainAPI.AuditEntries {
                try await admin.get(
                    "/v1/admin/audit?\(device.map { "device=\($0)&" } ?? "")\(query)",
                    as: KeychainAPI.AuditEntries.self,
                    decoder: KeychainAPI.AdminItems.decoder()
                )
            }
            do {
                let start = try await get("limit=1")
                #expect(start.entries.count == 1 && (start.entries.first?.sequence ?? .max) <= start.latest, "the device's latest entry, numbered")

                for account in ["x", "y", "z"] {
                    #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string(account)]) == -25300)
                }
                #expect(
                    try lab.status(.copyMatching, on: W.mac, as: "com.example.MacApp", ["class": .string("genp"), "acct": .string("m")]) == -25300
                )
                for _ in 0..<2 {
                    #expect(
                        try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "agrp": .string("OTHER98765.x")]) == -34018
                    )
                }

                var read: [KeychainDecision] = []
                var after = start.latest
                var pages = 0
                while true {
                    let page = try await get("after=\(after)&limit=2")
                    pages += 1
                    #expect(page.dropped == 0 && page.entries.count <= 2)
                    read += page.entries
                    #expect(page.next > after || !page.hasMore, "each page moves on")
                    after = page.next
                    guard page.hasMore else { break }
                }
                #expect(
                    read.map(\.name) == Array(repeating: "errSecItemNotFound", count: 3) + ["errSecMissingEntitlement", "errSecMissingEntitlement"]
                )
                #expect(read.allSatisfy { $0.device == udid } && pages >= 3, "the Mac's call is skipped; \(pages) pages")
                let numbers = read.compactMap(\.sequence)
                #expect(numbers.count == 5 && numbers == numbers.sorted() && numbers.allSatisfy { $0 > start.latest }, "\(numbers)")
                #expect(try await get("after=\(after)").entries.isEmpty, "nothing after the latest")

                // Every device's decisions without device=; with wait=, an empty answer waits for the next one.
                let everyDevice = try await get("after=\(start.latest)", device: nil)
                #expect(everyDevice.entries.contains { $0.device != udid && $0.appID == "ABCDE12345.com.example.MacApp" }, "the Mac's call too")
                let latest = everyDevice.latest
                async let waited = get("after=\(latest)&wait=10", device: nil)
                try await Task.sleep(for: .milliseconds(300))
                #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("w")]) == -25300)
                let news = try await waited
                #expect(news.entries.map(\.call) == ["SecItemCopyMatching"] && news.entries.first?.rule == .noMatch, "\(news.entries)")
                for bad in ["after=1&wait=26", "wait=5"] {
                    do {
                        _ = try await get(bad, device: nil)
                        Issue.record("\(bad) was taken")
                    } catch let failure as ServiceClient.Failure {
                        #expect(failure.status == 400 && failure.body.contains("wait must be 1 to 25 seconds"), "\(failure)")
                    }
                }

                for bad in ["after=-1", "after=soon"] {
                    do {
                        _ = try await get(bad)
                        Issue.record("\(bad) was taken")
                    } catch let failure as ServiceClient.Failure {
                        #expect(failure.status == 400 && failure.body.contains("after must be an audit sequence number"), "\(failure)")
                    }
                }
            } catch {
                await admin.shutdown()
                throw error
            }
            await admin.shutdown()
        }
    }
}
