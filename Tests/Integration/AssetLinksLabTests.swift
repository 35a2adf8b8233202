import Foundation
import Testing
import WorldTestSupport

/// A world website serves its Digital Asset Links file beside its association file, through
/// nginx, and `kclab assetlinks check --state` judges it as Google's API and Android would.
@Suite(.serialized) struct AssetLinksLabTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", 3 * $0) }.joined(separator: ":")

    static let world = """
        name: assetlinks
        teams: [{id: ABCDE12345, name: Example Inc.}]
        apps:
          - bundleID: com.example.App
            team: ABCDE12345
            program: keychainlab-app
            entitlements: {com.apple.developer.associated-domains: [webcredentials:example.com]}
        devices:
          - {id: phone, osVersion: "17.4", apps: [com.example.App]}
        websites:
          - domain: example.com
            aasa:
              content:
                webcredentials: {apps: [ABCDE12345.com.example.App]}
                applinks: {details: [{appIDs: [ABCDE12345.com.example.App], components: [{"/": "/*"}]}]}
            assetlinks:
              content:
                - relation: [delegate_permission/common.handle_all_urls, delegate_permission/common.get_login_creds]
                  target: {namespace: android_app, package_name: com.example.app, sha256_cert_fingerprints: ["\(fingerprint)"]}
            subdomains:
              # Passwords shared with the iOS app only: the Android file gives App Links alone.
              - name: www
                aasa: {content: {webcredentials: {apps: [ABCDE12345.com.example.App]}}}
                assetlinks:
                  content:
                    - relation: [delegate_permission/common.handle_all_urls]
                      target: {namespace: android_app, package_name: com.example.app, sha256_cert_fingerprints: ["\(fingerprint)"]}
        """

    @Test func theSitesAndroidFileIsServedAndChecked() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let checked = try lab.kclab([
                "assetlinks", "check", "example.com", "--package", "com.example.app", "--fingerprint", Self.fingerprint, "--json",
            ])
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any], "\(checked.stderr)")
            #expect(report["androidVerdict"] as? String == "SUCCESS" && (report["googleErrors"] as? [String]) == [], "\(report)")
            let findings = (report["findings"] as? [[String: Any]]) ?? []
            #expect(
                findings.contains { $0["rule"] as? String == "content-type" && $0["result"] as? String == "pass" },
                "served as application/json: \(report)"
            )

            // Google's statements.list for the site, one relation.
            let listed = try lab.kclab(["assetlinks", "list", "example.com", "--relation", "delegate_permission/common.get_login_creds"])
            #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
            #expect(listed.stdout.hasPrefix("delegate_permission/common.get_login_creds  android_app com.example.app \(Self.fingerprint)\n"))
            #expect(listed.stdout.contains("1 statement for https://example.com"), "\(listed.stdout)")

            // The upload key's fingerprint instead of the signing key's: both readers refuse it.
            let other = (0..<32).map { _ in "AA" }.joined(separator: ":")
            let refused = try lab.kclab(["assetlinks", "check", "example.com", "--package", "com.example.app", "--fingerprint", other])
            #expect(refused.status == 1 && refused.stdout.contains("FAILURE_REJECTED_BY_SERVER"), "\(refused.stdout)")
            #expect(refused.stdout.contains("Play App Signing"), "\(refused.stdout)")
        }
    }

    /// `kclab site check` reads both files of a host through nginx and compares them: the domain
    /// shares passwords with both apps, www with the iOS app only, which it flags.
    @Test func siteCheckFlagsPasswordsSharedWithOneAppOnly() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let app = "ABCDE12345.com.example.App"
            let package = "com.example.app:\(Self.fingerprint)"
            let shared = try lab.kclab(["site", "check", "example.com", "--app", app, "--package", package])
            #expect(shared.status == 0, "\(shared.stdout)\(shared.stderr)")
            #expect(shared.stdout.contains("PASS shared-credentials: webcredentials lists \(app) and get_login_creds names com.example.app"))
            #expect(shared.stdout.contains("PASS same-host: example.com answers both files itself"), "\(shared.stdout)")
            #expect(shared.stdout.contains("PASS app-links: applinks names \(app)"), "\(shared.stdout)")

            let checked = try lab.kclab(["site", "check", "www.example.com", "--app", app, "--package", package, "--json"])
            #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any], "\(checked.stderr)")
            let cross = (report["crossChecks"] as? [[String: Any]]) ?? []
            let credentials = cross.first { $0["rule"] as? String == "shared-credentials" }
            #expect(credentials?["result"] as? String == "fail", "\(report)")
            #expect((report["apple"] as? [String: Any])?["verdict"] as? String == "approved", "the iOS side alone is fine: \(report)")
            #expect((report["android"] as? [String: Any])?["androidVerdict"] as? String == "SUCCESS", "\(report)")
        }
    }

    /// Each broken Android file of the catalogue (`brokenSites: true`), through nginx: Google's
    /// error code and Android's verdict for App Links, which alone decides with `--verdict android`.
    static let broken: [(kind: String, code: String, android: String)] = [
        ("redirect", "REDIRECT", "FAILURE_REDIRECT"),
        ("wrong-content-type", "WRONG_CONTENT_TYPE", "SUCCESS"),
        ("lowercase-fingerprint", "MALFORMED_CONTENT", "FAILURE_REJECTED_BY_SERVER"),
        ("include-loop", "FETCH_BUDGET_EXHAUSTED", "FAILURE_REJECTED_BY_SERVER"),
        ("http-include", "SECURE_ASSET_INCLUDES_INSECURE", "FAILURE_UNKNOWN"),
        ("oversized", "TOO_LARGE", "FAILURE_REJECTED_BY_SERVER"),
        ("object-body", "MALFORMED_CONTENT", "FAILURE_UNKNOWN"),
    ]

    @Test func eachBrokenAndroidFileGetsItsVerdict() async throws {
        let world = Self.world.replacingOccurrences(of: "  - domain: example.com\n", with: "  - domain: example.com\n    brokenSites: true\n")
        try await withLab(world) { (lab: RunningLab) async throws in
            for (kind, code, android) in Self.broken {
                let host = "\(kind).badlinks.example.com"
                let checked = try lab.kclab([
                    "assetlinks", "check", host, "--package", "com.example.app", "--fingerprint", Self.fingerprint, "--json",
                ])
                let report = (try? JSONSerialization.jsonObject(with: Data(checked.stdout.utf8))) as? [String: Any] ?? [:]
                #expect(checked.status == 1, "\(kind): \(checked.stdout)\(checked.stderr)")
                #expect((report["googleErrors"] as? [String])?.contains(code) == true, "\(kind): \(report)")
                #expect(report["androidVerdict"] as? String == android, "\(kind): \(report)")
                // Asked for Android's verdict alone, the exit status follows it: a file Google's
                // API refuses (text/plain) still passes where Android's verifier reads it.
                let androidOnly = try lab.kclab([
                    "assetlinks", "check", host, "--package", "com.example.app", "--fingerprint", Self.fingerprint, "--verdict", "android",
                ])
                #expect(androidOnly.status == (android == "SUCCESS" ? 0 : 1), "\(kind): \(androidOnly.stdout)\(androidOnly.stderr)")
            }
        }
    }
}
