import AssetLinks
import Foundation
import Testing

/// A table of statement lists, each with a question and the answer Google's API gives: whether
/// the source links the target, and the error codes it reports. The cases are the lab's own,
/// written from the descriptions of Google's conformance suite (github.com/google/digitalassetlinks,
/// `compatibility-tests/v1`; the numbers in the names are its cases').
@Suite struct AssetLinksConformanceTests {
    static let print1 = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
    static let print2 = (0..<32).map { String(format: "%02X", 200 - $0) }.joined(separator: ":")
    static let links = "delegate_permission/common.handle_all_urls"
    static let creds = "delegate_permission/common.get_login_creds"

    static func app(_ package: String = "org.example.app", prints: [String] = [print1], relations: [String] = [links]) -> String {
        let fingerprints = prints.map { "\"\($0)\"" }.joined(separator: ",")
        let relation = relations.map { "\"\($0)\"" }.joined(separator: ",")
        return
            #"{"relation":[\#(relation)],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":[\#(fingerprints)]}}"#
    }

    static func web(_ site: String, _ relations: [String] = [creds]) -> String {
        let relation = relations.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"relation":[\#(relation)],"target":{"namespace":"web","site":"\#(site)"}}"#
    }

    static func include(_ url: String) -> String { #"{"include":"\#(url)"}"# }

    /// What the case asks: a relation and an app (package, fingerprint) or a site.
    enum Target: Sendable {
        case app(String, String)
        case site(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        var source = "https://source.example"
        var files: [String: String] = [:]
        var relation = AssetLinksConformanceTests.links
        var target: Target = .app("org.example.app", AssetLinksConformanceTests.print1)
        let linked: Bool
        var codes: Set<AssetLinksErrorCode> = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "2001 two statements, one with two relations",
            body: "[\(app(relations: [links, creds])), \(web("https://t.example"))]",
            linked: true
        ),
        Case(
            name: "2001 the same file, the web target",
            body: "[\(app()), \(web("https://t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: true
        ),
        Case(name: "2002 an empty list", body: "[]", linked: false, codes: [.fetchError]),
        Case(
            name: "2003 a bad statement between good ones",
            body: "[\(app()), {}, \(web("https://t.example"))]",
            linked: true,
            codes: [.malformedContent]
        ),
        Case(
            name: "2004 an include with a target",
            body: #"[{"include":"https://i.example/x.json","target":{"namespace":"web","site":"https://t.example"}}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2005 extra fields beside an include",
            body: #"[{"magic":{"a":"b"},"include":"https://i.example/x.json"}]"#,
            files: ["https://i.example/x.json": "[\(app())]"],
            linked: true
        ),
        Case(name: "2006 an unclosed list", body: "[{", linked: false, codes: [.malformedContent]),
        Case(name: "2007 a number", body: "42", linked: false, codes: [.malformedContent]),
        Case(name: "2008 a trailing comma", body: "[\(app()),]", linked: false, codes: [.malformedContent]),
        Case(name: "2009 one statement, not a list", body: app(), linked: false, codes: [.malformedContent]),
        Case(name: "2010 a string", body: #""foo""#, linked: false, codes: [.malformedContent]),
        Case(name: "2011 no target", body: #"[{"relation":["\#(links)"]}]"#, linked: false, codes: [.malformedContent]),
        Case(
            name: "2012 no relation",
            body: #"[{"target":{"namespace":"web","site":"https://t.example"}}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2013 a target that is a string",
            body: #"[{"relation":["\#(links)"],"target":"https://t.example"}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2014 an unknown namespace",
            body: #"[{"relation":["\#(links)"],"target":{"namespace":"internets"}}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(name: "2101 the predefined relation", body: "[\(app())]", linked: true),
        Case(
            name: "2104 a custom relation",
            body: "[\(app(relations: ["navigate/yellow_brick_road"]))]",
            relation: "navigate/yellow_brick_road",
            linked: true
        ),
        Case(name: "2107 an empty relation", body: "[\(app(relations: [""]))]", linked: false, codes: [.malformedContent]),
        Case(
            name: "2108 a relation that is not a list",
            body: #"[{"relation":"\#(links)","target":{"namespace":"web","site":"https://t.example"}}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(name: "2110 a wildcard detail", body: "[\(app(relations: ["delegate_permission/*"]))]", linked: false, codes: [.malformedContent]),
        Case(
            name: "2111 an upper-case kind",
            body: "[\(app(relations: ["INVALID_KIND/common.handle_all_urls"]))]",
            linked: false,
            codes: [.malformedContent]
        ),
        Case(name: "2113 a space before the kind", body: "[\(app(relations: [" " + links]))]", linked: false, codes: [.malformedContent]),
        Case(name: "2114 no slash", body: "[\(app(relations: ["write_on_the_walls"]))]", linked: false, codes: [.malformedContent]),
        Case(name: "2115 two slashes", body: "[\(app(relations: ["a/b/c"]))]", linked: false, codes: [.malformedContent]),
        Case(
            name: "2119 a space in the detail",
            body: "[\(app(relations: ["delegate_permission/common handle"]))]",
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2204 a site with a final dot",
            body: "[\(web("https://t.example."))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: true
        ),
        Case(
            name: "2205 a scheme in mixed case",
            body: "[\(web("HtTpS://t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: true
        ),
        Case(
            name: "2208 a mailto site",
            body: "[\(web("mailto://t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2209 a site with login information",
            body: "[\(web("https://u:p@t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2210 a site with a query",
            body: "[\(web("https://t.example?bar"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2212 a site with a final slash",
            body: "[\(web("https://t.example/"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "2216 a site without a scheme",
            body: "[\(web("t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false,
            codes: [.malformedContent]
        ),
        Case(name: "2302 an app under one of two certificates", body: "[\(app(prints: [print2, print1]))]", linked: true),
        Case(name: "2307 an empty package name", body: "[\(app(""))]", linked: false, codes: [.malformedContent]),
        Case(name: "2309 no fingerprint", body: "[\(app(prints: []))]", linked: false, codes: [.malformedContent]),
        Case(name: "2312 a lower-case fingerprint", body: "[\(app(prints: [print1.lowercased()]))]", linked: false, codes: [.malformedContent]),
        Case(name: "2314 31 octets", body: "[\(app(prints: [String(print1.dropLast(3))]))]", linked: false, codes: [.malformedContent]),
        Case(name: "4001 another package", body: "[\(app("org.example.other"))]", linked: false),
        Case(name: "4001 another certificate", body: "[\(app(prints: [print2]))]", linked: false),
        Case(name: "4301 another relation", body: "[\(app(relations: [creds]))]", linked: false),
        Case(
            name: "4402 no fingerprint field",
            body: #"[{"relation":["\#(links)"],"target":{"namespace":"android_app","package_name":"org.example.app"}}]"#,
            linked: false,
            codes: [.malformedContent]
        ),
        Case(
            name: "4405 a default port named",
            body: "[\(web("https://t.example:443"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: true
        ),
        Case(
            name: "4406 another port",
            body: "[\(web("https://t.example:444"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false
        ),
        Case(
            name: "4202 http is not https",
            body: "[\(web("http://t.example"))]",
            relation: creds,
            target: .site("https://t.example"),
            linked: false
        ),
        Case(
            name: "5002 an include that is not JSON",
            body: "[\(app()), \(include("https://i.example/bad.json"))]",
            files: ["https://i.example/bad.json": "[{"],
            linked: true,
            codes: [.malformedContent]
        ),
        Case(
            name: "5003 a bad include and a good one",
            body: "[\(include("https://i.example/bad.json")), \(include("https://i.example/good.json"))]",
            files: ["https://i.example/bad.json": "nope", "https://i.example/good.json": "[\(app())]"],
            linked: true,
            codes: [.malformedContent]
        ),
        Case(
            name: "5005 an include loop",
            body: "[\(include("https://i.example/a.json"))]",
            files: [
                "https://i.example/a.json": "[\(include("https://i.example/b.json"))]",
                "https://i.example/b.json": "[\(include("https://i.example/a.json")), \(app())]",
            ],
            linked: true,
            codes: [.fetchBudgetExhausted]
        ),
        Case(
            name: "5006 an https source includes http",
            body: "[\(include("http://i.example/x.json"))]",
            files: ["http://i.example/x.json": "[\(app())]"],
            linked: false,
            codes: [.secureAssetIncludesInsecure]
        ),
        Case(
            name: "5008 an http source includes http",
            body: "[\(include("http://i.example/x.json"))]",
            source: "http://source.example",
            files: ["http://i.example/x.json": "[\(app())]"],
            linked: true
        ),
        Case(
            name: "5009 http, then https, then http",
            body: "[\(include("https://i.example/x.json"))]",
            source: "http://source.example",
            files: ["https://i.example/x.json": "[\(include("http://i.example/y.json"))]", "http://i.example/y.json": "[\(app())]"],
            linked: false,
            codes: [.secureAssetIncludesInsecure]
        ),
        Case(
            name: "5010 an include with a bad port",
            body: "[\(include("https://i.example:999999/x.json"))]",
            linked: false,
            codes: [.malformedContent]
        ),
        Case(name: "5011 a mailto include", body: "[\(include("mailto://i.example/x.json"))]", linked: false, codes: [.malformedContent]),
    ]

    @Test(arguments: cases) func answersAsGooglesAPIDoes(_ testCase: Case) async throws {
        let resolved = await ResolvedStatements.resolve(
            StatementList.read(Data(testCase.body.utf8)),
            source: try WebAsset(site: testCase.source)
        ) { url in
            testCase.files[url.description].map { .data(Data($0.utf8)) } ?? .failed("404", .fetchError)
        }
        let relation = try AssetRelation(testCase.relation)
        let linked =
            switch testCase.target {
            case .app(let package, let fingerprint): resolved.statements.links(relation, toApp: package, fingerprint: fingerprint)
            case .site(let site): resolved.statements.links(relation, to: try WebAsset(site: site))
            }
        #expect(linked == testCase.linked)
        let codes = Set(resolved.findings.filter { $0.result == .fail }.compactMap(\.code))
        #expect(codes == testCase.codes, "\(resolved.findings)")
    }

    @Test func thereAreAtLeastFortyCases() {
        #expect(Self.cases.count >= 40)
    }

    /// Android's own decision beside Google's: a list Google reads with one statement skipped
    /// fails the whole host on Android; an upload-key fingerprint is rejected by both.
    @Test func androidDecidesForTheWholeHost() throws {
        func verdict(_ body: String, _ fingerprint: String = Self.print1) throws -> AssetLinksReport.AndroidVerdict? {
            let list = StatementList.read(Data(body.utf8))
            let resolved = ResolvedStatements(statements: list.statements, findings: list.findings)
            return AssetLinksReport(
                source: try WebAsset(site: "https://source.example"),
                served: [],
                resolved: resolved,
                app: try AndroidAppAsset(packageName: "org.example.app", fingerprints: [fingerprint]),
                relations: [.handleAllURLs]
            ).androidVerdict
        }
        #expect(try verdict("[\(Self.app())]") == .success)
        #expect(try verdict("[\(Self.app())]", Self.print2) == .failureRejectedByServer)
        #expect(try verdict("[\(Self.app()), \(Self.web("mailto://t.example"))]") == .failureUnknown, "Google skips it; Android throws")
        #expect(try verdict("[\(Self.app()), \(Self.web("https://t.example/"))]") == .success, "Android reads a site's final /")
        #expect(
            try verdict("[\(Self.app()), {\"relation\":[\"\(Self.links)\"]}]") == .success,
            "a statement without target is skipped on Android too"
        )
        let redirected = StatementListFetch.response(
            status: 301,
            contentType: nil,
            location: "https://www.source.example/",
            body: Data(),
            truncated: false
        )
        .judged(url: "https://source.example/.well-known/assetlinks.json")
        let report = AssetLinksReport(
            source: try WebAsset(site: "https://source.example"),
            served: redirected.findings,
            resolved: ResolvedStatements(statements: [], findings: []),
            app: try AndroidAppAsset(packageName: "org.example.app", fingerprints: [Self.print1]),
            relations: [.handleAllURLs]
        )
        #expect(report.androidVerdict == .failureRedirect && report.googleErrors == [.redirect])
    }
}
