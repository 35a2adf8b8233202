import AssetLinks
import Foundation
import PositionedJSON
import Testing

/// Digital Asset Links files read as Google's API reads them. The cases are the lab's own,
/// written from what Google's compatibility tests check (github.com/google/digitalassetlinks,
/// `compatibility-tests/v1`: the test numbers are theirs).
@Suite struct AssetLinksTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let other = (0..<32).map { String(format: "%02X", 255 - $0) }.joined(separator: ":")

    static func app(
        _ package: String = "com.example.app",
        _ fingerprints: [String] = [fingerprint],
        relations: [String] = [AssetRelation.handleAllURLs.description]
    ) -> String {
        let prints = fingerprints.map { "\"\($0)\"" }.joined(separator: ",")
        let listed = relations.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"relation":[\#(listed)],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":[\#(prints)]}}"#
    }

    static func web(_ site: String, relation: String = "delegate_permission/common.get_login_creds") -> String {
        #"{"relation":["\#(relation)"],"target":{"namespace":"web","site":"\#(site)"}}"#
    }

    static func read(_ text: String) -> StatementList { StatementList.read(Data(text.utf8)) }

    static func failures(_ list: StatementList) -> [AssetLinksFinding.Rule] {
        list.findings.filter { $0.result == .fail }.map(\.rule)
    }

    @Test func aValidListLinksEachRelationAndTarget() throws {
        // 2001: two statements, one with two relations.
        let list = Self.read(
            "[\(Self.app(relations: [AssetRelation.handleAllURLs.description, AssetRelation.getLoginCreds.description])), \(Self.web("https://www.example.com"))]"
        )
        #expect(!list.failed, "\(list.findings)")
        #expect(list.statements.count == 2)
        #expect(list.statements.links(.handleAllURLs, toApp: "com.example.app", fingerprint: Self.fingerprint))
        #expect(list.statements.links(.getLoginCreds, toApp: "com.example.app", fingerprint: Self.fingerprint))
        #expect(!list.statements.links(.handleAllURLs, toApp: "com.example.app", fingerprint: Self.other))
        #expect(list.statements.links(.getLoginCreds, to: try WebAsset(site: "HtTpS://WWW.Example.com.")), "2204, 2205: case and a trailing dot")
        #expect(list.statements.list(relation: nil).count == 3, "the list query's empty relation matches every one")
        #expect(list.statements.list(relation: .handleAllURLs).count == 1)
    }

    @Test func aBadStatementIsSkippedAndTheRestKept() {
        // 2003: [valid, {}, valid]: both valid ones still link, and the file is MALFORMED_CONTENT.
        let list = Self.read("[\(Self.app()), {}, \(Self.web("https://example.com"))]")
        #expect(list.statements.count == 2)
        let skipped = list.findings.first { $0.result == .fail }
        #expect(skipped?.rule == .statementTarget && skipped?.code == .malformedContent && skipped?.position?.line == 1, "\(list.findings)")
    }

    @Test(arguments: [
        ("[{", AssetLinksFinding.Rule.jsonSyntax),  // 2006
        ("42", .rootArray),  // 2007
        ("[1,]", .jsonSyntax),  // 2008
        (#"{"relation":[],"target":{}}"#, .rootArray),  // 2009: one statement, not a list
        ("[42]", .elementObject),
        (#"[{"relation":["delegate_permission/common.handle_all_urls"]}]"#, .statementTarget),  // 2011
        (#"[{"target":{"namespace":"web","site":"https://a.example"}}]"#, .statementRelation),  // 2012
        (#"[{"relation":["delegate_permission/x"],"target":"https://a.example"}]"#, .statementTarget),  // 2013
        (#"[{"relation":["delegate_permission/x"],"target":{"namespace":"internets"}}]"#, .targetNamespace),  // 2014
        (#"[{"relation":"delegate_permission/x","target":{"namespace":"web","site":"https://a.example"}}]"#, .statementRelation),  // 2108
        (#"[{"relation":[7],"target":{"namespace":"web","site":"https://a.example"}}]"#, .relationSyntax),  // 2109
    ])
    func eachMalformedShapeIsNamed(_ text: String, _ rule: AssetLinksFinding.Rule) {
        let list = Self.read(text)
        #expect(Self.failures(list).contains(rule), "\(list.findings)")
        #expect(list.findings.filter { $0.result == .fail }.allSatisfy { $0.code == .malformedContent && $0.position != nil })
    }

    @Test func anEmptyListFailsAsGooglesAPIAnswersIt() {
        // 2002: [] parses, and the API answers FETCH_ERROR "No statements were found".
        let list = Self.read("[]")
        let empty = list.findings.first { $0.rule == .emptyList }
        #expect(list.failed && empty?.result == .fail && empty?.code == .fetchError, "\(list.findings)")
        #expect(empty?.detail.contains("No statements were found") == true)
        // An empty included file only adds nothing.
        let included = StatementList.read(Data("[]".utf8), file: "https://a.example/more.json")
        #expect(!included.failed && included.findings.contains { $0.rule == .emptyList && $0.result == .warn })
    }

    @Test(arguments: [
        ("delegate_permission/common.handle_all_urls", nil),
        ("navigate/yellow_brick_road", nil),  // 2104: any kind of the right shape
        ("delegate_permission/write_on_the_walls", nil),
        ("delegate_permission/*", AssetLinksFinding.Rule.relationDetail),  // 2110: no wildcard
        ("delegate_permission/BAD", .relationDetail),
        ("delegate_permission/a b", .relationDetail),
        ("delegate_permission/", .relationDetail),
        ("INVALID_KIND/x", .relationKind),  // 2111
        ("/x", .relationKind),
        (" delegate_permission/x", .relationKind),
        ("write_on_the_walls", .relationSyntax),  // 2114
        ("a/b/c", .relationSyntax),
        ("a,b", .relationSyntax),
        ("", .relationSyntax),  // 2107
    ])
    func relationsFollowTheGrammar(_ text: String, _ rule: AssetLinksFinding.Rule?) {
        do {
            _ = try AssetRelation(text)
            #expect(rule == nil, "'\(text)' should be refused")
        } catch {
            #expect(error.rule == rule, "'\(text)': \(error.message)")
        }
    }

    @Test func sitesCompareAsGoogleNormalisesThem() throws {
        #expect(try WebAsset(site: "HtTpS://Example.COM.") == WebAsset(site: "https://example.com"))
        let explicit = try WebAsset(site: "https://example.com:443")
        #expect(explicit == (try WebAsset(site: "https://example.com")) && explicit.namesDefaultPort, "4405")
        #expect(try WebAsset(site: "http://example.com:80") == WebAsset(site: "http://example.com"))
        #expect(try WebAsset(site: "http://example.com") != WebAsset(site: "https://example.com"), "4202: each scheme its own site")
        #expect(try WebAsset(site: "https://example.com:444") != WebAsset(site: "https://example.com"), "4406")
        #expect(try WebAsset(site: "https://example.com:8443").description == "https://example.com:8443")
    }

    @Test(arguments: [
        "mailto://example.com", "https://user:pw@example.com", "https://example.com?bar", "https://example.com#bar",
        "https://example.com/", "https://example.com/path", "example.com", "https://example.com:999999", "https://*.example.com",
        "https://exa mple.com",
    ])
    func aSiteWithMoreThanSchemeHostAndPortIsRefused(_ text: String) {
        #expect(throws: AssetLinksProblem.self) { try WebAsset(site: text) }
    }

    @Test func androidTargetsNeedAPackageAndUpperCaseFingerprints() {
        let cases: [(String, AssetLinksFinding.Rule)] = [
            (Self.app("com.example.app", []), .fingerprints),  // 2309
            (Self.app("com.example.app", [Self.fingerprint.lowercased()]), .fingerprintFormat),  // 2312
            (Self.app("com.example.app", [String(Self.fingerprint.dropLast(3))]), .fingerprintFormat),  // 2314: 31 octets
            (Self.app("com.example.app", [Self.fingerprint.replacingOccurrences(of: ":", with: "")]), .fingerprintFormat),
            (Self.app("com.example.app", ["GG" + Self.fingerprint.dropFirst(2)]), .fingerprintFormat),
            (Self.app("", [Self.fingerprint]), .packageName),  // 2307
            (Self.app("B A D", [Self.fingerprint]), .packageName),  // 2308
        ]
        for (text, rule) in cases {
            let list = Self.read("[\(text)]")
            #expect(Self.failures(list) == [rule], "\(text): \(list.findings)")
        }
        let lower = Self.read("[\(Self.app("com.example.app", [Self.fingerprint.lowercased()]))]")
        #expect(lower.findings.first?.detail.contains("upper case") == true, "says why a lower-case one never matches on Android")
        // 4401: a target listing two certificates links under either.
        let two = Self.read("[\(Self.app("com.example.app", [Self.other, Self.fingerprint]))]")
        #expect(two.statements.links(.handleAllURLs, toApp: "com.example.app", fingerprint: Self.fingerprint))
        #expect(two.statements.links(.handleAllURLs, toApp: "com.example.app", fingerprint: Self.other))
    }

    @Test func includesAreCheckedWhereTheyAreWritten() {
        // 2004: an include with target; 2005: extra fields beside an include are fine; 5010, 5011.
        #expect(
            Self.failures(Self.read(#"[{"include":"https://a.example/x.json","target":{"namespace":"web","site":"https://a.example"}}]"#)) == [
                .includeFields
            ]
        )
        let extra = Self.read(#"[{"magicfield":{"a":"b"},"include":"https://a.example/more.json"}]"#)
        #expect(!extra.failed && extra.includes.map(\.url) == ["https://a.example/more.json"])
        #expect(Self.failures(Self.read(#"[{"include":"https://a.example:999999/x.json"}]"#)) == [.includeURL])
        #expect(Self.failures(Self.read(#"[{"include":"mailto://a.example/x.json"}]"#)) == [.includeURL])
    }

    /// Follows includes from `files` (URL → body) for `source`.
    static func resolve(_ top: String, source: String, _ files: [String: String]) async throws -> ResolvedStatements {
        await ResolvedStatements.resolve(read(top), source: try WebAsset(site: source)) { url in
            files[url.description].map { .data(Data($0.utf8)) } ?? .unavailable("not given")
        }
    }

    @Test func anIncludeChainStaysSecureOnceItIs() async throws {
        let insecure = #"[{"include":"http://b.example/x.json"}]"#
        // 5006: an https source includes http.
        let fromSecure = try await Self.resolve(insecure, source: "https://a.example", ["http://b.example/x.json": "[\(Self.app())]"])
        #expect(fromSecure.findings.contains { $0.rule == .includeInsecure && $0.code == .secureAssetIncludesInsecure })
        #expect(fromSecure.statements.isEmpty)
        // 5008: an http source may include http.
        let plain = try await Self.resolve(insecure, source: "http://a.example", ["http://b.example/x.json": "[\(Self.app())]"])
        #expect(plain.statements.count == 1 && !plain.findings.contains { $0.result == .fail })
        // 5009: http → https → http: the https include makes the chain secure.
        let sticky = try await Self.resolve(
            #"[{"include":"https://b.example/x.json"}]"#,
            source: "http://a.example",
            ["https://b.example/x.json": #"[{"include":"http://c.example/y.json"}]"#, "http://c.example/y.json": "[\(Self.app())]"]
        )
        #expect(sticky.findings.contains { $0.rule == .includeInsecure }, "\(sticky.findings)")
    }

    @Test func aLoopOrTooManyIncludesExhaustTheBudget() async throws {
        // 5005: A → B → A, B holding a statement: B's statement counts, and the budget is exhausted.
        let loop = try await Self.resolve(
            #"[{"include":"https://b.example/b.json"}]"#,
            source: "https://a.example",
            [
                "https://b.example/b.json": #"[{"include":"https://a.example/a.json"}, \#(Self.app())]"#,
                "https://a.example/a.json": #"[{"include":"https://b.example/b.json"}]"#,
            ]
        )
        #expect(loop.statements.count == 1)
        #expect(loop.findings.contains { $0.rule == .fetchBudget && $0.code == .fetchBudgetExhausted }, "\(loop.findings)")
        #expect(loop.findings.contains { $0.rule == .includeDepth && $0.result == .warn }, "Android follows one level only: \(loop.findings)")
        // Twelve different files: ten are read.
        let many = (0..<12).map { #"{"include":"https://a.example/\#($0).json"}"# }.joined(separator: ",")
        var files: [String: String] = [:]
        for index in 0..<12 { files["https://a.example/\(index).json"] = "[\(Self.app("com.example.app\(index)"))]" }
        let budget = try await Self.resolve("[\(many)]", source: "https://a.example", files)
        #expect(budget.statements.count == ResolvedStatements.fetchBudget)
        #expect(budget.findings.contains { $0.rule == .fetchBudget })
        // A file that repeats one include many times costs one read and one finding.
        let repeated = Array(repeating: #"{"include":"https://a.example/0.json"}"#, count: 5000).joined(separator: ",")
        let once = try await Self.resolve("[\(repeated)]", source: "https://a.example", files)
        #expect(once.statements.count == 1 && once.findings.filter { $0.rule == .fetchBudget }.count == 1)
    }

    @Test func aBrokenIncludeLosesOnlyItsOwnStatements() async throws {
        // 5002, 5003: one include is not JSON, another is fine, the parent's statement stays.
        let resolved = try await Self.resolve(
            #"[\#(Self.web("https://x.example")), {"include":"https://a.example/bad.json"}, {"include":"https://a.example/good.json"}]"#,
            source: "https://a.example",
            ["https://a.example/bad.json": "[{", "https://a.example/good.json": "[\(Self.app())]"]
        )
        #expect(resolved.statements.count == 2)
        let bad = resolved.findings.first { $0.result == .fail }
        #expect(bad?.rule == .jsonSyntax && bad?.detail.hasPrefix("https://a.example/bad.json:") == true, "\(resolved.findings)")
    }

    @Test func whatOnlyAndroidRefusesIsAWarning() {
        let number = Self.read(
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"web","site":"https://a.example"},"priority":1}]"#
        )
        #expect(!number.failed && number.findings.contains { $0.rule == .androidStrict && $0.detail.contains("a number") })
        let twice = Self.read(
            #"[{"relation":["delegate_permission/x"],"relation":["delegate_permission/y"],"target":{"namespace":"web","site":"https://a.example"}}]"#
        )
        #expect(twice.findings.contains { $0.rule == .androidStrict && $0.detail.contains("given twice") })
    }

    @Test func theUploadKeyInsteadOfPlayAppSigningsIsNamed() throws {
        let list = Self.read("[\(Self.app("com.example.app", [Self.other]))]")
        let resolved = ResolvedStatements(statements: list.statements, findings: list.findings)
        let report = AssetLinksReport(
            source: try WebAsset(site: "https://example.com"),
            served: [],
            resolved: resolved,
            app: try AndroidAppAsset(packageName: "com.example.app", fingerprints: [Self.fingerprint]),
            relations: [.handleAllURLs]
        )
        #expect(!report.passed && report.links.map(\.linked) == [false])
        #expect(report.findings.last?.detail.contains("Play App Signing") == true, "\(report.findings)")
    }

    @Test func howTheFileWasServedCarriesGooglesCodes() {
        let body = Data("[]".utf8)
        func code(_ fetch: StatementListFetch) -> AssetLinksErrorCode? {
            fetch.judged(url: "https://a.example/.well-known/assetlinks.json").findings.first { $0.result == .fail }?.code
        }
        #expect(code(.response(status: 301, contentType: nil, location: "https://www.a.example/", body: body, truncated: false)) == .redirect)
        #expect(code(.response(status: 404, contentType: "text/html", location: nil, body: body, truncated: false)) == .fetchError)
        #expect(code(.response(status: 200, contentType: "text/html", location: nil, body: body, truncated: false)) == .wrongContentType)
        #expect(code(.response(status: 200, contentType: "application/json", location: nil, body: body, truncated: true)) == .tooLarge)
        #expect(code(.untrusted("self-signed")) == .failedSSLValidation)
        #expect(code(.response(status: 200, contentType: "application/json; charset=utf-8", location: nil, body: body, truncated: false)) == nil)
    }

    /// statements.list: one statement per relation and per certificate, filtered by relation,
    /// in the API's ListResponse shape.
    @Test func theListQueryAnswersAsGooglesAPI() throws {
        let list = Self.read(
            "[\(Self.app(relations: [AssetRelation.handleAllURLs.description, AssetRelation.getLoginCreds.description])), "
                + "\(Self.app("com.example.other", [Self.fingerprint, Self.other])), \(Self.web("https://www.example.com"))]"
        )
        let source = try WebAsset(secureHost: "example.com")
        let every = StatementListing(source: source, statements: list.statements, relation: nil, errors: [])
        #expect(every.statements.count == 5, "two relations, two certificates, one site: \(every.statements.map(\.line))")
        let credentials = StatementListing(source: source, statements: list.statements, relation: .getLoginCreds, errors: [])
        #expect(
            credentials.statements.map(\.line) == [
                "\(AssetRelation.getLoginCreds)  android_app com.example.app \(Self.fingerprint)",
                "\(AssetRelation.getLoginCreds)  web https://www.example.com",
            ]
        )
        let json = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(credentials)) as? [String: Any])
        let first = try #require((json["statements"] as? [[String: Any]])?.first)
        #expect((first["source"] as? [String: [String: String]])?["web"]?["site"] == "https://example.com")
        let target = (first["target"] as? [String: Any])?["androidApp"] as? [String: Any]
        #expect((target?["certificate"] as? [String: String])?["sha256Fingerprint"] == Self.fingerprint, "\(json)")
        #expect(json["errorCode"] as? [String] == [])
    }
}
