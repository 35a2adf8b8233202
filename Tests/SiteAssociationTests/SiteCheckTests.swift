import AssetLinks
import CMSSupport
import Foundation
import SiteAssociation
import SiteCheck
import Testing

/// The rules of `kclab site check` that compare a site's two files: each one's every case, from
/// answers made here (the fetching is IndependentServerTests' and AssetLinksLabTests').
@Suite struct SiteCheckTests {
    static let appID = "ABCDE12345.com.example.app"
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 3 % 256) }.joined(separator: ":")
    static let host = "example.com"

    /// The association file's verdict for the iOS app when the site answers `status` with `json`.
    static func apple(_ json: String, status: Int = 200, location: String? = nil) -> SiteReport {
        let attempt = FetchAttempt(
            url: "https://example.com/.well-known/apple-app-site-association",
            outcome: .response(status: status, contentType: "application/json", location: location, body: Data(json.utf8), truncated: false)
        )
        return SiteEvaluator(host: host, trust: TrustStore(anchors: []), now: Date()).evaluate([attempt], service: .webcredentials, appID: appID)
    }

    /// The asset-links report for the Android app when the site answers `status` with `relations`.
    static func android(_ relations: [AssetRelation], status: Int = 200, location: String? = nil) throws -> AssetLinksReport {
        let listed = relations.map { "\"\($0)\"" }.joined(separator: ",")
        let body =
            relations.isEmpty
            ? "[]"
            : #"[{"relation":[\#(listed)],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(fingerprint)"]}}]"#
        let served = StatementListFetch.response(
            status: status,
            contentType: "application/json",
            location: location,
            body: Data(body.utf8),
            truncated: false
        )
        .judged(url: "https://example.com/.well-known/assetlinks.json")
        let list = served.body.map { StatementList.read($0) } ?? StatementList()
        return AssetLinksReport(
            source: try WebAsset(secureHost: host),
            served: served.findings,
            resolved: ResolvedStatements(statements: list.statements, findings: list.findings),
            app: try app(),
            relations: [.handleAllURLs, .getLoginCreds]
        )
    }

    static func app() throws -> AndroidAppAsset { try AndroidAppAsset(packageName: "com.example.app", fingerprints: [fingerprint]) }

    static func report(_ apple: SiteReport, _ android: AssetLinksReport) throws -> SiteCheckReport {
        SiteCheckReport(host: host, appID: appID, app: try app(), apple: apple, android: android)
    }

    static func result(_ report: SiteCheckReport, _ rule: CrossCheck.Rule) -> CrossCheck? {
        report.crossChecks.first { $0.rule == rule }
    }

    static let credentials = #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#
    static let both =
        #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]},"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/*"}]}]}}"#

    @Test func bothFilesSharingPasses() throws {
        let report = try Self.report(Self.apple(Self.both), Self.android([.handleAllURLs, .getLoginCreds]))
        #expect(report.passed, "\(report.lines)")
        #expect(report.crossChecks.allSatisfy { $0.result == .pass }, "\(report.crossChecks)")
        #expect(report.lines.last == "passed: example.com for ABCDE12345.com.example.app and com.example.app")
    }

    @Test func webcredentialsWithoutGetLoginCredsIsAMismatch() throws {
        let report = try Self.report(Self.apple(Self.credentials), Self.android([.handleAllURLs]))
        let check = try #require(Self.result(report, .sharedCredentials))
        #expect(check.result == .fail && check.detail.contains("delegate_permission/common.get_login_creds"), "\(check)")
        #expect(!report.passed)
        // iOS shares, Android's file passes its own rules: only the comparison fails.
        #expect(report.apple.verdict == .approved)
    }

    @Test func getLoginCredsWithoutWebcredentialsIsAMismatch() throws {
        let report = try Self.report(Self.apple(#"{"webcredentials":{"apps":[]}}"#), Self.android([.getLoginCreds]))
        let check = try #require(Self.result(report, .sharedCredentials))
        #expect(check.result == .fail && check.detail.contains("Add ABCDE12345.com.example.app to webcredentials.apps"), "\(check)")
        let neither = try Self.report(Self.apple(#"{"webcredentials":{"apps":[]}}"#), Self.android([]))
        #expect(Self.result(neither, .sharedCredentials)?.result == .warn)
    }

    @Test func appLinksOnOnePlatformOnlyFail() throws {
        let iosOnly = try Self.report(Self.apple(Self.both), Self.android([.getLoginCreds]))
        #expect(Self.result(iosOnly, .appLinks)?.result == .fail)
        #expect(Self.result(iosOnly, .appLinks)?.detail.contains("FAILURE_REJECTED_BY_SERVER") == true)
        let androidOnly = try Self.report(Self.apple(Self.credentials), Self.android([.handleAllURLs, .getLoginCreds]))
        #expect(Self.result(androidOnly, .appLinks)?.result == .fail)
        let neither = try Self.report(Self.apple(Self.credentials), Self.android([.getLoginCreds]))
        #expect(Self.result(neither, .appLinks)?.result == .notApplicable)
        #expect(Self.result(neither, .appLinkPaths)?.result == .notApplicable)
    }

    @Test func pathsIOSLimitsAreShownBesideAndroids() throws {
        let limited =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/account/*"},{"/":"/admin/*","exclude":true}]}]}}"#
        let report = try Self.report(Self.apple(limited), Self.android([.handleAllURLs]))
        let check = try #require(Self.result(report, .appLinkPaths))
        #expect(check.result == .warn && check.detail.contains("/account/*, NOT /admin/*"), "\(check)")
    }

    @Test func aRedirectOnEitherSideFailsSameHost() throws {
        let moved = try Self.report(
            Self.apple(Self.both),
            Self.android([.handleAllURLs, .getLoginCreds], status: 301, location: "https://www.example.com/.well-known/assetlinks.json")
        )
        let check = try #require(Self.result(moved, .sameHost))
        #expect(check.result == .fail && check.detail.hasPrefix("example.com must answer both files itself") && check.detail.contains("Android:"))
        let appleMoved = try Self.report(
            Self.apple("", status: 302, location: "https://www.example.com/.well-known/apple-app-site-association"),
            Self.android([.handleAllURLs, .getLoginCreds])
        )
        #expect(Self.result(appleMoved, .sameHost)?.detail.contains("iOS:") == true)
    }

    @Test func theReportEncodesBothSides() throws {
        let report = try Self.report(Self.apple(Self.credentials), Self.android([.handleAllURLs]))
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        #expect((object["apple"] as? [String: Any])?["verdict"] as? String == "approved")
        #expect(((object["android"] as? [String: Any])?["androidVerdict"]) as? String == "SUCCESS")
        let cross = (object["crossChecks"] as? [[String: Any]]) ?? []
        #expect(cross.contains { $0["rule"] as? String == "shared-credentials" && $0["result"] as? String == "fail" })
    }
}
