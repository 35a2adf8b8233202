import AssetLinks
import Foundation
import Testing

/// `kclab assetlinks check`'s two verdicts, Google's API (and its hosting rules) and Android's
/// verifier, kept side by side when they disagree, and the one asked for (`--verdict`) deciding;
/// and the questions it asks: an app, a site (Google's check with a web target), or a relation
/// alone, each failing when it finds nothing.
@Suite struct AssetLinksVerdictTests {
    static let print1 = (0..<32).map { String(format: "%02X", $0 * 13 % 256) }.joined(separator: ":")
    static let upload = (0..<32).map { String(format: "%02X", 200 - $0) }.joined(separator: ":")
    static let links = "delegate_permission/common.handle_all_urls"
    static let creds = "delegate_permission/common.get_login_creds"
    static let source = "https://source.example"
    static let app =
        #"{"relation":["\#(links)"],"target":{"namespace":"android_app","package_name":"org.example.app","sha256_cert_fingerprints":["\#(print1)"]}}"#

    static func web(_ site: String, _ relation: String = creds) -> String {
        #"{"relation":["\#(relation)"],"target":{"namespace":"web","site":"\#(site)"}}"#
    }

    static func include(_ url: String) -> String { #"{"include":"\#(url)"}"# }

    /// What is asked of the list.
    enum Ask: Sendable {
        case app(String)
        case site(String, String)
        case relation(String)
        case nothing
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        var files: [String: String] = [:]
        /// The list served as this type (nil: a local file, nothing fetched).
        var servedAs: String? = nil
        var ask: Ask = .app(AssetLinksVerdictTests.print1)
        let google: Bool
        let android: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a list both readers accept", body: "[\(app)]", google: true, android: true),
        Case(name: "a bad statement among good ones, which Android skips too", body: "[\(app), {}]", google: false, android: true),
        Case(name: "a site with a final slash, which Android reads", body: "[\(app), \(web("https://t.example/"))]", google: false, android: true),
        Case(name: "a mailto site, on which Android's parser throws", body: "[\(app), \(web("mailto://t.example"))]", google: false, android: false),
        Case(
            name: "a self-include beside a good statement",
            body: "[\(app), \(include("\(source)/.well-known/assetlinks.json"))]",
            google: false,
            android: true
        ),
        Case(
            name: "a number in a statement, which only Android refuses",
            body:
                #"[{"relation":["\#(links)"],"target":{"namespace":"android_app","package_name":"org.example.app","sha256_cert_fingerprints":["\#(print1)"]},"priority":1}]"#,
            google: true,
            android: false
        ),
        Case(name: "served as text/plain, which Android does not look at", body: "[\(app)]", servedAs: "text/plain", google: false, android: true),
        Case(
            name: "the statement only in an include's include",
            body: "[\(include("\(source)/a.json"))]",
            files: ["\(source)/a.json": "[\(include("\(source)/b.json"))]", "\(source)/b.json": "[\(app)]"],
            google: true,
            android: false
        ),
        Case(name: "the upload key's fingerprint asked", body: "[\(app)]", ask: .app(upload), google: false, android: false),
        Case(name: "an empty list, nothing asked", body: "[]", ask: .nothing, google: false, android: false),
        Case(name: "a good list, nothing asked", body: "[\(app)]", ask: .nothing, google: true, android: true),
        Case(name: "a relation a statement gives", body: "[\(app)]", ask: .relation(links), google: true, android: true),
        Case(name: "a relation no statement gives", body: "[\(app)]", ask: .relation(creds), google: false, android: false),
        Case(
            name: "a site the list links",
            body: "[\(web("https://t.example"))]",
            ask: .site("https://t.example", creds),
            google: true,
            android: true
        ),
        Case(
            name: "a site by another relation",
            body: "[\(web("https://t.example"))]",
            ask: .site("https://t.example", links),
            google: false,
            android: false
        ),
        Case(name: "http is not https", body: "[\(web("http://t.example"))]", ask: .site("https://t.example", creds), google: false, android: false),
    ]

    static func report(_ testCase: Case, verdict: AssetLinksReport.Verdict = .both) async throws -> AssetLinksReport {
        let site = try WebAsset(site: source)
        var served = StatementListFetch.localFile(url: site.statementListURL)
        var body: Data? = Data(testCase.body.utf8)
        if let type = testCase.servedAs {
            let fetched = StatementListFetch.response(status: 200, contentType: type, location: nil, body: Data(testCase.body.utf8), truncated: false)
            let judged = fetched.judged(url: site.statementListURL)
            served = judged.findings
            body = judged.body
        }
        let list = body.map { StatementList.read($0) } ?? StatementList()
        let resolved = await ResolvedStatements.resolve(list, source: site) { url in
            testCase.files[url.description].map { .data(Data($0.utf8)) } ?? .failed("404", .fetchError)
        }
        switch testCase.ask {
        case .app(let fingerprint):
            let app = try AndroidAppAsset(packageName: "org.example.app", fingerprints: [fingerprint])
            return AssetLinksReport(source: site, served: served, resolved: resolved, app: app, relations: [.handleAllURLs], verdict: verdict)
        case .site(let target, let relation):
            let other = try WebAsset(site: target)
            let asked = try AssetRelation(relation)
            return AssetLinksReport(source: site, served: served, resolved: resolved, app: nil, site: other, relations: [asked], verdict: verdict)
        case .relation(let relation):
            let asked = try AssetRelation(relation)
            return AssetLinksReport(source: site, served: served, resolved: resolved, app: nil, relations: [asked], verdict: verdict)
        case .nothing:
            return AssetLinksReport(source: site, served: served, resolved: resolved, app: nil, relations: [], verdict: verdict)
        }
    }

    @Test(arguments: cases)
    func bothVerdictsStayAndTheOneAskedDecides(_ testCase: Case) async throws {
        let report = try await Self.report(testCase)
        #expect(report.googlePassed == testCase.google, "Google: \(report.lines)")
        #expect(report.androidPassed == testCase.android, "Android: \(report.lines)")
        #expect(report.passed == (testCase.google && testCase.android), "both decide by default")
        let disagreement = report.lines.contains { $0.contains("the verdict asked, both, decides") }
        #expect(disagreement == (testCase.google != testCase.android), "\(report.lines)")
        for verdict in AssetLinksReport.Verdict.allCases {
            let asked = try await Self.report(testCase, verdict: verdict)
            let expected =
                switch verdict {
                case .android: testCase.android
                case .google: testCase.google
                case .both: testCase.google && testCase.android
                }
            #expect(asked.passed == expected, "\(verdict): \(asked.lines)")
        }
    }

    /// A web target's question in the report's JSON: the site asked about and `linked: false`,
    /// with the hint that http and https are different sites.
    @Test func aWebTargetNotLinkedSaysWhy() async throws {
        let report = try await Self.report(
            Case(name: "http", body: "[\(Self.web("http://t.example"))]", ask: .site("https://t.example", Self.creds), google: false, android: false)
        )
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any])
        let link = try #require((object["links"] as? [[String: Any]])?.first, "\(object)")
        #expect(link["site"] as? String == "https://t.example" && link["linked"] as? Bool == false && link["packageName"] == nil, "\(link)")
        #expect(object["googlePassed"] as? Bool == false && object["androidPassed"] as? Bool == false && object["verdict"] as? String == "both")
        let failed = report.findings.first { $0.rule == .linked && $0.result == .fail }
        #expect(failed?.detail.contains("http and https, and each port, are different sites") == true, "\(report.findings)")
    }

    /// Android sees only one level of include: a link Google finds deeper is a warning for Android.
    @Test func aLinkAndroidDoesNotSeeIsNamed() async throws {
        let deep = try #require(Self.cases.first { $0.name == "the statement only in an include's include" })
        let report = try await Self.report(deep)
        #expect(report.links.map(\.linked) == [true] && report.links.map(\.androidLinked) == [false])
        #expect(report.findings.contains { $0.rule == .linked && $0.result == .warn && $0.detail.contains("Android's verifier does not see it") })
        #expect(report.androidVerdict == .failureRejectedByServer, "App Links: no handle_all_urls statement Android reads")
    }
}
