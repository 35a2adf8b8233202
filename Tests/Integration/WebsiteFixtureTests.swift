import DeviceProtocol
import Foundation
import LabControl
import Testing
import WebsiteFixture
import WorldBuilder
import WorldFile
import WorldLayout
import WorldTestSupport

/// The nginx fixture serves a world's association files over real TLS, and `kclab aasa check`
/// judges them as a device would.
@Suite(.serialized) struct WebsiteFixtureTests {
    static let world = """
        name: sites
        teams: [{id: D3KQX62K1A, name: Example Web}]
        apps:
          - bundleID: com.example.DemoApp
            team: D3KQX62K1A
            entitlements: {com.apple.developer.associated-domains: [webcredentials:example.com]}
        websites:
          - domain: example.com
            brokenSites: true
            aasa:
              content:
                webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp, D3KQX62K1A.com.example.DemoAdminApp]}
            subdomains:
              - name: www
                aasa:
                  content:
                    webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}
              - name: support
                aasa:
                  signed: true
                  content:
                    webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}
              - name: empty
              - name: links
                aasa:
                  content:
                    applinks:
                      apps: []
                      details:
                        - appIDs: [D3KQX62K1A.com.example.DemoApp]
                          components: [{"/": "/account/*", exclude: true}, {"/": "/buy/*"}]
        """

    struct Site {
        let built: BuiltWorld
        let port: Int
        let nginx: NginxConfiguration

        /// Runs `kclab aasa check` against the fixture, every host resolved to it.
        func check(_ target: String, _ extra: [String] = []) throws -> (status: Int32, report: [String: Any]) {
            let hosts = nginx.hosts + ["unknown.example.com"]
            var arguments = ["aasa", "check", target, "--json", "--trust", built.file("trust/web-root-ca.pem").path]
            for host in hosts { arguments += ["--resolve", "\(host)=127.0.0.1:\(port)"] }
            let result = try run(productsDirectory.appending(path: "kclab"), arguments + extra)
            let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
            return (result.status, report)
        }
    }

    func withSite(_ body: (Site) throws -> Void) async throws {
        try await withBuiltWorld(Self.world) { built in
            let port = try NginxProcess.freePort()
            let configuration = NginxConfiguration(
                world: built.world,
                layout: built.layout,
                prefix: built.layout.root.appending(path: "nginx"),
                port: port
            )
            let nginx = try NginxProcess(configuration)
            defer { nginx.stop() }
            try body(Site(built: built, port: port, nginx: configuration))
        }
    }

    static func failed(_ report: [String: Any]) -> [String] {
        ((report["checks"] as? [[String: String]]) ?? []).filter { $0["result"] == "fail" }.compactMap { $0["rule"] }
    }

    @Test func servesPlainAndSignedFilesThatDevicesAccept() async throws {
        try await withSite { site in
            let plain = try site.check("example.com", ["--app", "D3KQX62K1A.com.example.DemoAdminApp"])
            #expect(plain.status == 0 && plain.report["verdict"] as? String == "approved", "\(plain.report)")
            #expect(plain.report["url"] as? String == "https://example.com/.well-known/apple-app-site-association")
            let signed = try site.check("support.example.com", ["--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(signed.report["verdict"] as? String == "approved", "\(signed.report)")
            let rules = ((signed.report["checks"] as? [[String: String]]) ?? []).map { "\($0["rule"] ?? "")=\($0["result"] ?? "")" }
            #expect(rules.contains("signature=pass"), "\(rules)")
            let root = try site.check("https://www.example.com/apple-app-site-association", ["--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(root.status == 0)
        }
    }

    static func rules(_ report: [String: Any], _ result: String) -> [String] {
        ((report["checks"] as? [[String: String]]) ?? []).filter { $0["result"] == result }.compactMap { $0["rule"] }
    }

    /// Each broken site of the catalogue, with the verdict a device reaches and the rule that decides.
    static let catalogue: [(kind: String, verdict: String, rule: String, result: String)] = [
        ("redirect-301", "denied", "no-redirects", "fail"), ("redirect-http", "denied", "no-redirects", "fail"),
        ("status-404", "denied", "http-status", "fail"), ("status-403", "denied", "http-status", "fail"),
        ("flaky-500", "pending", "http-status", "fail"), ("status-503", "pending", "http-status", "fail"),
        ("oversized", "denied", "size-limit", "fail"), ("exact-limit", "approved", "size-limit", "pass"),
        ("invalid-json", "denied", "json-syntax", "fail"), ("bom", "approved", "byte-order-mark", "warn"),
        ("app-missing", "denied", "app-listed", "fail"), ("no-team-prefix", "denied", "app-listed", "fail"),
        ("signed-other-domain", "denied", "signature", "fail"), ("expired-certificate", "denied", "https-trust", "fail"),
        ("untrusted-ca", "denied", "https-trust", "fail"), ("wrong-content-type", "approved", "content-type", "warn"),
        ("slow", "pending", "timeout", "fail"), ("redirect-loop", "denied", "no-redirects", "fail"),
        ("huge-headers", "pending", "reachable", "fail"), ("garbage-der", "denied", "signature", "fail"),
        ("endless", "denied", "size-limit", "fail"),
    ]

    @Test func theBrokenSitesFailAsDevicesFailThem() async throws {
        #expect(Set(Self.catalogue.map(\.kind)) == Set(BrokenSite.allCases.map(\.rawValue)), "every kind has its expectation")
        try await withSite { site in
            for (kind, verdict, rule, result) in Self.catalogue {
                let host = "\(kind).bad.example.com"
                let answer = try site.check(host, ["--app", "D3KQX62K1A.com.example.DemoApp", "--timeout", "2"])
                #expect(answer.report["verdict"] as? String == verdict, "\(host): \(answer.report)")
                #expect(Self.rules(answer.report, result).contains(rule), "\(host): \(answer.report)")
                #expect(answer.status == (verdict == "approved" ? 0 : 1))
            }
            let noPrefix = try site.check("no-team-prefix.bad.example.com")
            #expect(Self.rules(noPrefix.report, "warn").contains("app-id-format"))
            let downgrade = try site.check("redirect-http.bad.example.com")
            #expect(((downgrade.report["checks"] as? [[String: String]]) ?? []).contains { $0["detail"]?.contains("plain http") == true })

            // The flaky site recovers once the lab says so: pending sites are worth retrying.
            try FileManager.default.createDirectory(at: site.nginx.recoveryFolder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: site.nginx.recoveryFolder.appending(path: "flaky-500.bad.example.com").path, contents: Data())
            let recovered = try site.check("flaky-500.bad.example.com", ["--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(recovered.report["verdict"] as? String == "approved", "\(recovered.report)")
        }
    }

    @Test func matchesURLsAgainstTheServedPatterns() async throws {
        try await withSite { site in
            let answer = try site.check(
                "links.example.com",
                [
                    "--service", "applinks", "--app", "D3KQX62K1A.com.example.DemoApp", "--match", "https://links.example.com/buy/42",
                    "--match", "https://links.example.com/account/me", "--match", "https://links.example.com/other",
                ]
            )
            #expect(answer.status == 0, "\(answer.report)")
            let matches = ((answer.report["checks"] as? [[String: String]]) ?? []).filter { $0["rule"] == "url-match" }
            #expect(matches.map { $0["result"] ?? "" } == ["pass", "warn", "warn"])
            #expect(matches.first?["detail"]?.contains(#"Pattern {"/": "/buy/*"} matched"#) == true, "\(matches)")
            #expect(matches.dropFirst().first?["detail"]?.contains("blocked match") == true)
            #expect(matches.last?["detail"]?.contains("No pattern matched") == true)
        }
    }

    @Test func refusesWhatADeviceRefuses() async throws {
        try await withSite { site in
            let unlisted = try site.check("www.example.com", ["--app", "D3KQX62K1A.com.example.DemoAdminApp"])
            #expect(unlisted.status == 1 && unlisted.report["verdict"] as? String == "denied")
            #expect(Self.failed(unlisted.report) == ["app-listed"])
            let missing = try site.check("empty.example.com")
            #expect(missing.report["verdict"] as? String == "denied" && Self.failed(missing.report).contains("http-status"))
            let wrongHost = try site.check("unknown.example.com")
            #expect(wrongHost.report["verdict"] as? String == "denied" && Self.failed(wrongHost.report) == ["https-trust"], "\(wrongHost.report)")
            let iOS8 = try site.check("example.com", ["--os", "ios:8"])
            #expect(Self.failed(iOS8.report).contains("signed-file-required"))
            let usage = try site.check("http://example.com/apple-app-site-association")
            #expect(usage.status == 2)
        }
    }
}

/// The lab's Apple-like CDN: what iOS 14+ devices read, and why a changed file does not reach them.
@Suite(.serialized) struct CDNLabTests {
    static let world = """
        name: cdn
        teams: [{id: D3KQX62K1A}]
        apps: [{bundleID: com.example.DemoApp, team: D3KQX62K1A}]
        websites:
          - domain: example.com
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}
            subdomains: [{name: gone}]
        """

    static func check(_ lab: RunningLab, _ arguments: [String]) throws -> (status: Int32, report: [String: Any]) {
        let result = try lab.kclab(["aasa", "check", "--json"] + arguments)
        return (result.status, (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:])
    }

    static func check(_ report: [String: Any], _ rule: String) -> [String: String]? {
        ((report["checks"] as? [[String: String]]) ?? []).first { $0["rule"] == rule }
    }

    /// A URL with no path names the domain: checked at .well-known, as a device checks it.
    @Test func aURLWithoutAPathChecksTheDomain() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            for target in ["https://example.com", "https://example.com/"] {
                let result = try Self.check(lab, [target, "--app", "D3KQX62K1A.com.example.DemoApp"])
                #expect(result.status == 0, "\(target): \(result.report)")
                #expect((result.report["url"] as? String)?.hasSuffix("/.well-known/apple-app-site-association") == true, "\(result.report)")
            }
        }
    }

    @Test func devicesReadTheCDNsCopyUntilItExpires() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(lab.summary.cdn != nil)
            let first = try Self.check(lab, ["example.com", "--cdn", "--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(first.status == 0 && Self.check(first.report, "cdn")?["result"] == "pass", "\(first.report)")
            #expect(Self.check(first.report, "cdn-copy")?["result"] == "pass")

            // The site drops the app from its file: the site says so at once, the CDN does not.
            let served = lab.state.builtWorld.appending(path: "websites/example.com/apple-app-site-association")
            try Data(#"{"webcredentials":{"apps":[]}}"#.utf8).write(to: served)
            let direct = try Self.check(lab, ["example.com", "--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(direct.status == 1)
            let cached = try Self.check(lab, ["example.com", "--cdn", "--app", "D3KQX62K1A.com.example.DemoApp"])
            #expect(cached.status == 0, "iOS 14+ devices still get the old copy")
            #expect(Self.check(cached.report, "cdn-copy")?["result"] == "warn")
            #expect(Self.check(cached.report, "cdn-copy")?["detail"]?.contains("mode=developer") == true)

            let missing = try Self.check(lab, ["gone.example.com", "--cdn"])
            #expect(missing.status == 1 && Self.check(missing.report, "cdn")?["detail"]?.contains("SWCERR00101 Bad HTTP Response: 404") == true)
        }
    }
}

/// associationd in a running lab: devices send each installed app, associationd decides each
/// associated domain (through the CDN on iOS 14+, directly before and in developer mode).
@Suite(.serialized) struct AssociationLabTests {
    static let world = """
        name: associations
        teams: [{id: D3KQX62K1A}]
        apps:
          - bundleID: com.example.DemoApp
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains:
                - webcredentials:example.com
                - webcredentials:www.example.com?mode=developer
                - webcredentials:status-503.bad.example.com
                - webcredentials:app-missing.bad.example.com
                - applinks:https://example.com
          - bundleID: com.example.Other
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
        devices:
          - {id: phone, osVersion: "17.4", apps: [com.example.DemoApp, com.example.Other]}
          - {id: old-phone, osVersion: "12.5", apps: [com.example.DemoApp]}
        websites:
          - domain: example.com
            brokenSites: true
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}
            subdomains:
              - {name: www, aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}}
        """

    @Test func devicesAssociationsAreDecidedAndKept() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let listed = try lab.kclab(["associations", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let records = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
            func state(_ udidOf: String, _ app: String, _ entry: String) -> (state: String?, reason: String?, next: Any?) {
                let udid = lab.device(udidOf)?.udid ?? ""
                let record = records.first { $0["device"] as? String == udid && $0["appID"] as? String == app && $0["entry"] as? String == entry }
                return (record?["state"] as? String, record?["reason"] as? String, record?["nextRetry"])
            }
            let demo = "D3KQX62K1A.com.example.DemoApp"
            #expect(state("phone", demo, "webcredentials:example.com").state == "approved")
            #expect(state("phone", demo, "webcredentials:example.com").reason?.contains("app-listed") == true)
            #expect(state("phone", demo, "webcredentials:www.example.com?mode=developer").state == "approved")
            let pending = state("phone", demo, "webcredentials:status-503.bad.example.com")
            #expect(pending.state == "denied", "iOS 17 asks the CDN, which says stop: \(pending)")
            #expect(pending.reason?.contains("SWCERR00101 Bad HTTP Response: 503") == true)
            let oldPending = state("old-phone", demo, "webcredentials:status-503.bad.example.com")
            #expect(oldPending.state == "pending" && oldPending.next != nil, "iOS 12 asks the site: a 503 stays pending, retried")
            #expect(state("phone", demo, "webcredentials:app-missing.bad.example.com").state == "denied")
            #expect(state("phone", demo, "applinks:https://example.com").reason?.contains("entitlement-entry") == true)
            #expect(state("phone", "D3KQX62K1A.com.example.Other", "webcredentials:example.com").state == "denied", "the file does not list it")

            let table = try lab.kclab(["associations", "--app", "com.example.Other"])
            #expect(table.stdout.contains("DEVICE") && table.stdout.contains("phone") && !table.stdout.contains("DemoApp"))

            // associationd serves exactly its OpenAPI document.
            let operations = try OpenAPIRoutes.operations(in: "Services/Associations/AssociationAPI/openapi.yaml")
            #expect(operations.count == 6, "\(operations)")
            try OpenAPIRoutes.check(
                operations,
                undocumented: [("GET", "/v1/apps"), ("PUT", "/v1/associations"), ("GET", "/v2/health"), ("POST", "/v1/admin/associations")],
                endpoint: try Endpoint(lab.state.associationdEndpoint).url,
                lab: lab,
                device: "phone"
            )
        }
    }
}
