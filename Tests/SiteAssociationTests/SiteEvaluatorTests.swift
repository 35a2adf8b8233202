import CMSSupport
import Foundation
import SiteAssociation
import Testing

/// How what was fetched becomes a verdict (spec associations.md b.1, b.2, b.5).
@Suite struct SiteEvaluatorTests {
    static let json = Data(#"{"webcredentials": {"apps": ["D3KQX62K1A.com.example.DemoApp"]}}"#.utf8)
    static let wellKnown = "https://example.com/.well-known/apple-app-site-association"
    static let root = "https://example.com/apple-app-site-association"
    static let evaluator = SiteEvaluator(host: "example.com", trust: TrustStore(anchors: []), now: Date())

    static func response(
        _ status: Int,
        _ body: Data = json,
        type: String? = "application/json",
        location: String? = nil,
        truncated: Bool = false
    )
        -> FetchAttempt.Outcome
    {
        .response(status: status, contentType: type, location: location, body: body, truncated: truncated)
    }

    static func evaluate(_ outcomes: [(String, FetchAttempt.Outcome)], app: String? = "D3KQX62K1A.com.example.DemoApp") -> SiteReport {
        evaluator.evaluate(outcomes.map { FetchAttempt(url: $0.0, outcome: $0.1) }, service: .webcredentials, appID: app)
    }

    static func rules(_ report: SiteReport, _ result: Check.Result) -> [String] { report.checks.filter { $0.result == result }.map(\.rule.rawValue) }

    @Test func aListedAppIsApproved() {
        let report = Self.evaluate([(Self.wellKnown, Self.response(200))])
        #expect(report.verdict == .approved && report.url == Self.wellKnown)
        #expect(Self.rules(report, .fail).isEmpty)
        #expect(report.services == ["webcredentials": ["D3KQX62K1A.com.example.DemoApp"]])
    }

    @Test func theRootPathIsTriedWhenWellKnownRefuses() {
        let refused = FetchAttempt(url: Self.wellKnown, outcome: Self.response(404))
        #expect(SiteEvaluator.triesNextLocation(after: refused))
        #expect(!SiteEvaluator.triesNextLocation(after: FetchAttempt(url: Self.wellKnown, outcome: Self.response(503))))
        #expect(!SiteEvaluator.triesNextLocation(after: FetchAttempt(url: Self.wellKnown, outcome: .timeout)))
        let report = Self.evaluate([(Self.wellKnown, Self.response(404)), (Self.root, Self.response(200))])
        #expect(report.verdict == .approved && report.url == Self.root)
    }

    @Test(
        arguments: [
            (response(301, location: "https://www.example.com/.well-known/apple-app-site-association"), SiteReport.Verdict.denied, "no-redirects"),
            (response(302, location: "http://example.com/x"), .denied, "no-redirects"),
            (response(403), .denied, "http-status"),
            (response(404), .denied, "http-status"),
            (response(500), .pending, "http-status"),
            (response(503), .pending, "http-status"),
            (.timeout, .pending, "timeout"),
            (.unreachable("connection refused"), .pending, "reachable"),
            (.untrustedServer("certificate verify failed"), .denied, "https-trust"),
            (response(200, truncated: true), .denied, "size-limit"),
            (response(200, Data("{not json".utf8)), .denied, "json-syntax"),
            (response(200, Data([0x14, 0x99, 0x01]), type: "application/pkcs7-mime"), .denied, "signature"),
            (response(200, Data([0x30, 0x82, 0xFF, 0xFF, 0x01]), type: "application/json"), .denied, "signature"),
        ]
    )
    func statusesDecide(outcome: FetchAttempt.Outcome, verdict: SiteReport.Verdict, rule: String) {
        let report = Self.evaluate([(Self.root, outcome)])
        #expect(report.verdict == verdict)
        #expect(Self.rules(report, .fail).contains(rule), "\(report.checks)")
    }

    @Test func aRedirectToPlainHTTPSaysSo() {
        let report = Self.evaluate([(Self.root, Self.response(301, location: "http://example.com/apple-app-site-association"))])
        #expect(report.checks.contains { $0.rule == .noRedirects && $0.detail.contains("plain http") })
    }

    @Test func anAppNotListedIsDeniedWithAHint() {
        let report = Self.evaluate([(Self.root, Self.response(200))], app: "com.example.DemoApp")
        #expect(report.verdict == .denied)
        let failure = report.checks.first { $0.rule == .appListed }
        #expect(failure?.result == .fail && failure?.detail.contains("prefix and case") == true)
    }

    @Test func aWrongContentTypeOnlyWarns() {
        let report = Self.evaluate([(Self.root, Self.response(200, type: "text/plain"))])
        #expect(report.verdict == .approved)
        #expect(Self.rules(report, .warn).contains("content-type"))
    }

    @Test func iOS8ReadsSignedFilesOnly() {
        let old = SiteEvaluator(host: "example.com", trust: TrustStore(anchors: []), now: Date(), era: 8)
        let report = old.evaluate([FetchAttempt(url: Self.root, outcome: Self.response(200))], service: .webcredentials, appID: nil)
        #expect(report.verdict == .denied && Self.rules(report, .fail).contains("signed-file-required"))
    }

    @Test func aForgedSignatureIsDenied() {
        var forged = Data([0x30, 0x82, 0x01, 0x00])
        forged.append(Data(repeating: 0x41, count: 256))
        let report = Self.evaluate([(Self.root, Self.response(200, forged, type: "application/pkcs7-mime"))])
        #expect(report.verdict == .denied && Self.rules(report, .fail).contains("signature"))
    }
}
