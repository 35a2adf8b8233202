import CMSSupport
import Foundation
import SiteAssociation
import Testing

/// Files shaped like the ones real projects publish (written for this repository after the shapes
/// the spec's corpus records: large legacy path lists, percent-encoded patterns, a query exclusion
/// that excludes everything, mixed formats, missing prefixes, case variants, repeated apps,
/// comments, trailing commas, CRLF). Each is judged as served with a 200 and matched as a device
/// matches, so a change to the reader or the matcher shows here as a changed verdict or outcome.
@Suite struct CorpusTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var service: AssociationService = .webcredentials
        var app: String?
        var verdict: SiteReport.Verdict
        /// Exactly the rules that fail.
        var fails: [String] = []
        /// Rules that must warn (others may too).
        var warns: [String] = []
        /// URL, expected outcome, and the device's iOS release.
        var matches: [(url: String, outcome: AssociationFile.URLMatch.Outcome, era: Int)] = []

        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "media-legacy-paths.json",
            service: .applinks,
            app: "M3D1A5TV01.com.example.media",
            verdict: .approved,
            matches: [
                ("https://example.com/watch/abc", .matched, 17), ("https://example.com/settings/privacy", .blocked, 17),
                ("https://example.com/channel/0899/videos", .matched, 17), ("https://example.com/channel/0900/videos", .noMatch, 17),
                ("https://example.com/shorts/", .noMatch, 17), ("https://example.com/shorts/x1", .matched, 12),
                ("https://example.com/@someone", .matched, 17), ("https://example.com/login?next=/watch/1", .blocked, 17),
            ]
        ),
        Case(file: "media-legacy-paths.json", service: .activitycontinuation, app: "M3D1A5TV01.com.example.media", verdict: .approved),
        Case(
            file: "media-legacy-paths.json",
            service: .applinks,
            app: "M3D1A5TV01.com.example.media.kids",
            verdict: .approved,
            matches: [("https://example.com/kids/show", .matched, 17), ("https://example.com/watch/abc", .noMatch, 17)]
        ),
        Case(
            file: "wiki-encoded-components.json",
            service: .applinks,
            app: "WIK1M3D1A0.org.example.wiki",
            verdict: .approved,
            warns: ["applinks-apps"],
            matches: [
                ("https://ko.example.org/wiki/%ED%8A%B9%EC%88%98:%EC%B5%9C%EA%B7%BC", .blocked, 17),
                ("https://ko.example.org/wiki/Special:Random", .blocked, 17), ("https://ko.example.org/wiki/Seoul", .matched, 17),
                ("https://ko.example.org/w/index.php?title=Seoul", .matched, 17),
                ("https://ko.example.org/w/index.php?action=raw", .noMatch, 17),
                ("https://ko.example.org/w/index.php?title=", .noMatch, 17),
                ("https://ko.example.org/wiki/Seoul", .noMatch, 12),
            ]
        ),
        Case(
            file: "call-query-exclusion.json",
            service: .applinks,
            app: "CALL5ITE01.io.example.call",
            verdict: .approved,
            warns: ["exclude-wildcard-item"],
            matches: [
                ("https://call.example.io/room/abc", .blocked, 17), ("https://call.example.io/room/abc?no_universal_links=1", .blocked, 17),
            ]
        ),
        Case(
            file: "shop-mixed-formats.json",
            service: .applinks,
            app: "5H0P5H0P01.com.example.shop",
            verdict: .approved,
            warns: ["mixed-formats"],
            matches: [
                ("https://shop.example.com/product/1?ref=mail", .matched, 17), ("https://shop.example.com/product/1", .noMatch, 17),
                ("https://shop.example.com/DEAL/x", .matched, 17), ("https://shop.example.com/cart", .blocked, 17),
                ("https://shop.example.com/product/1", .matched, 12), ("https://shop.example.com/DEAL/x", .noMatch, 12),
                ("https://shop.example.com/cart", .blocked, 12),
            ]
        ),
        Case(
            file: "no-team-prefix.json",
            app: "AB12CD34EF.org.example.festival",
            verdict: .denied,
            fails: ["app-listed"],
            warns: ["app-id-format"]
        ),
        Case(
            file: "case-variant-app-id.json",
            app: "CA5EVAR1AN.com.example.Notes",
            verdict: .denied,
            fails: ["app-listed"],
            warns: ["app-id-format"]
        ),
        Case(file: "app-ids-not-array.json", service: .applinks, verdict: .denied, fails: ["app-id-type", "app-id-type"]),
        Case(
            file: "repeated-app-id.json",
            service: .applinks,
            app: "GR8G1GR8G1.com.example.tickets",
            verdict: .approved,
            warns: ["app-id-repeated"],
            matches: [("https://t.example.com/event/1", .matched, 17), ("https://t.example.com/venue/2", .noMatch, 17)]
        ),
        Case(
            file: "clips-and-variables.json",
            service: .applinks,
            app: "C0FFEE1234.com.example.cafe",
            verdict: .approved,
            matches: [
                ("https://cafe.example.com/en_GB/menu/tea", .matched, 17), ("https://cafe.example.com/EN_gb/menu/tea", .matched, 17),
                ("https://cafe.example.com/en_UK/menu/tea", .noMatch, 17), ("https://cafe.example.com/order/large/1", .matched, 17),
                ("https://cafe.example.com/order/medium/1", .noMatch, 17), ("https://cafe.example.com/store/5", .matched, 17),
            ]
        ),
        Case(file: "clips-and-variables.json", service: .appclips, app: "C0FFEE1234.com.example.cafe.Clip", verdict: .approved),
        Case(file: "clips-and-variables.json", service: .webcredentials, app: "C0FFEE1234.com.example.cafe", verdict: .denied, fails: ["app-listed"]),
        Case(file: "placeholder-app-id.json", app: "AB12CD34EF.com.example.forum", verdict: .denied, fails: ["app-listed"], warns: ["app-id-format"]),
        Case(
            file: "unreachable-exclusion.json",
            service: .applinks,
            app: "UNR34CH4B1.com.example.blog",
            verdict: .approved,
            warns: ["unreachable-pattern"],
            matches: [("https://blog.example.com/admin/x", .matched, 17)]
        ),
        Case(file: "dictionary-details-broken.json", service: .applinks, verdict: .denied, fails: ["json-syntax"]),
        Case(file: "comment-in-json.json", verdict: .denied, fails: ["json-syntax"]),
        Case(file: "crlf-webcredentials.json", app: "CR1F000001.com.example.notes", verdict: .approved),
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Corpus")

    @Test(arguments: cases)
    func judgesAndMatchesAsDevicesDo(_ example: Case) throws {
        let body = try Data(contentsOf: Self.folder.appending(path: example.file))
        let url = "https://example.com/.well-known/apple-app-site-association"
        let served = FetchAttempt(
            url: url,
            outcome: .response(status: 200, contentType: "application/json", location: nil, body: body, truncated: false)
        )
        let evaluator = SiteEvaluator(host: "example.com", trust: TrustStore(anchors: []), now: Date())
        let report = evaluator.evaluate([served], service: example.service, appID: example.app)
        #expect(report.verdict == example.verdict, "\(report.checks)")
        #expect(report.checks.filter { $0.result == .fail }.map(\.rule.rawValue) == example.fails, "\(report.checks)")
        let warned = Set(report.checks.filter { $0.result == .warn }.map(\.rule.rawValue))
        #expect(Set(example.warns).isSubset(of: warned), "\(report.checks)")
        guard !example.matches.isEmpty else { return }
        let file = try #require(report.file)
        let app = try #require(example.app)
        for (address, outcome, era) in example.matches {
            let result = file.match(try #require(URL(string: address)), appID: app, era: era)
            #expect(result.outcome == outcome, "iOS \(era) \(address): \(result)")
        }
    }

    @Test func everyCorpusFileHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.cases.map(\.file)))
    }

    @Test func aRepeatedAppIsListedOnce() throws {
        let body = try Data(contentsOf: Self.folder.appending(path: "repeated-app-id.json"))
        let file = try #require(AssociationFile.read(body).file)
        #expect(file.appIDs(for: .applinks) == ["GR8G1GR8G1.com.example.tickets"])
    }
}
