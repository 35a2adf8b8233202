import AssetLinks
import Foundation
import Testing

/// Queries answered as Google's API answers them: for each shape of list and check request in
/// Google's compatibility suite (github.com/google/digitalassetlinks, `compatibility-tests/v1`,
/// groups 2000, 4000 and 5000), the outcome (SUCCESS or FETCH_ERROR), the answer (`linked`, or
/// how many statements are listed) and words the API's message holds. The lists and cases are
/// the lab's own, written from the suite's descriptions.
@Suite struct AssetLinksAnswerTests {
    static let print1 = (0..<32).map { String(format: "%02X", $0 * 11 % 256) }.joined(separator: ":")
    static let print2 = (0..<32).map { String(format: "%02X", 255 - $0 * 3) }.joined(separator: ":")
    static let links = "delegate_permission/common.handle_all_urls"
    static let creds = "delegate_permission/common.get_login_creds"
    static let share = "delegate_permission/common.share_location"

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

    /// What is asked: a list by a relation (nil: every one), or a check of a target.
    enum Ask: Sendable {
        case list(String?)
        case check(String, AssetLinksQuery.Fields)
    }

    static func site(_ site: String) -> AssetLinksQuery.Fields { .web(site: site) }
    static func android(_ package: String = "org.example.app", _ fingerprint: String = print1) -> AssetLinksQuery.Fields {
        .androidApp(packageName: package, fingerprint: fingerprint)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        var source = "https://source.example"
        var files: [String: String] = [:]
        let ask: Ask
        let outcome: AssetLinksAnswer.Outcome
        /// A check's `linked`, or how many statements a list gives.
        let answer: Int
        /// Words the API's message holds.
        var says: String? = nil
        var testDescription: String { name }
    }

    /// `linked` as a case's answer.
    static let yes = 1
    static let no = 0

    static let twoStatements = "[\(app(relations: [links, share])), \(web("https://target.example"))]"
    static let twoSites = "[\(web("https://target.example", [links, share])), \(web("https://target2.example", [links]))]"
    static let twoCertificates = "[\(app(prints: [print1, print2]))]"

    static let parsing: [Case] = [
        Case(name: "2001 the first relation", body: twoStatements, ask: .check(links, android()), outcome: .success, answer: yes),
        Case(name: "2001 the second relation", body: twoStatements, ask: .check(share, android()), outcome: .success, answer: yes),
        Case(name: "2001 web to web", body: twoStatements, ask: .check(creds, site("https://target.example")), outcome: .success, answer: yes),
        Case(name: "2002 an empty list", body: "[]", ask: .list(nil), outcome: .fetchError, answer: 0, says: "No statements were found"),
        Case(
            name: "2003 a bad statement between good ones, the site",
            body: "[\(web("https://target.example")), {}, \(app())]",
            ask: .check(creds, site("https://target.example")),
            outcome: .fetchError,
            answer: yes,
            says: "Could not parse statement list"
        ),
        Case(
            name: "2003 a bad statement between good ones, the app",
            body: "[\(web("https://target.example")), {}, \(app())]",
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: yes,
            says: "Could not parse statement list"
        ),
        Case(
            name: "2004 an include with a target",
            body: #"[{"include":"https://source.example/more.json","target":{"namespace":"web","site":"https://target.example"}}]"#,
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "invalid field"
        ),
        Case(
            name: "2005 other fields beside an include",
            body: #"[{"magic":{"a":"b"},"include":"https://source.example/more.json"}]"#,
            files: ["https://source.example/more.json": "[\(web("https://target.example"))]"],
            ask: .check(creds, site("https://target.example")),
            outcome: .success,
            answer: yes
        ),
        Case(name: "2006 an unclosed list", body: "[{", ask: .list(nil), outcome: .fetchError, answer: 0, says: "not valid JSON"),
        Case(name: "2007 a number", body: "42", ask: .list(nil), outcome: .fetchError, answer: 0, says: "not valid JSON"),
        Case(
            name: "2008 a trailing comma",
            body: "[\(web("https://target.example")),]",
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "not valid JSON"
        ),
        Case(
            name: "2009 one statement",
            body: web("https://target.example"),
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "expected a single array"
        ),
        Case(name: "2010 a string", body: #""foo""#, ask: .list(nil), outcome: .fetchError, answer: 0, says: "Could not parse statement list"),
        Case(
            name: "2011 no target",
            body: #"[{"relation":["\#(links)"]}]"#,
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "no target specified"
        ),
        Case(
            name: "2012 no relation",
            body: #"[{"target":{"namespace":"web","site":"https://target.example"}}]"#,
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "no relation"
        ),
        Case(
            name: "2013 a target that is text",
            body: #"[{"relation":["\#(links)"],"target":"https://target.example"}]"#,
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "not an object"
        ),
        Case(
            name: "2014 an unknown namespace",
            body: #"[{"relation":["\#(links)"],"target":{"namespace":"internets","site":"https://target.example"}}]"#,
            ask: .list(nil),
            outcome: .fetchError,
            answer: 0,
            says: "unrecognized namespace"
        ),
    ]

    @Test(arguments: parsing + matching + includes)
    func eachQueryIsAnsweredAsTheSuiteExpects(_ testCase: Case) async throws {
        let resolved = await ResolvedStatements.resolve(
            StatementList.read(Data(testCase.body.utf8)),
            source: try WebAsset(site: testCase.source)
        ) { url in
            testCase.files[url.description].map { .data(Data($0.utf8)) } ?? .failed("404", .fetchError)
        }
        let source = AssetLinksQuery.Fields.web(site: testCase.source)
        let query: AssetLinksQuery
        switch testCase.ask {
        case .list(let relation): query = try AssetLinksQuery.parse(source: source, relation: relation)
        case .check(let relation, let target): query = try AssetLinksQuery.parse(source: source, relation: relation, target: target)
        }
        let answer = query.answer(served: [], resolved: resolved)
        #expect(answer.outcome == testCase.outcome, "\(answer.debugString)")
        switch testCase.ask {
        case .list: #expect(answer.statements?.count == testCase.answer && answer.linked == nil, "\(answer)")
        case .check: #expect(answer.linked == (testCase.answer == Self.yes) && answer.statements == nil, "\(answer)")
        }
        #expect(answer.found == (testCase.answer > 0), "a query that finds nothing says so: \(answer)")
        if let says = testCase.says { #expect(answer.debugString.contains(says), "\(answer.debugString)") }
        #expect((answer.outcome == .success) == answer.errorCode.isEmpty)
    }

    /// The answer in the API's JSON shape: ListResponse (statements, errorCode, debugString) or
    /// CheckResponse (linked …), with the suite's outcome.
    @Test func answersEncodeAsTheAPIsResponses() async throws {
        let source = try WebAsset(site: "https://source.example")
        let resolved = await ResolvedStatements.resolve(StatementList.read(Data("[]".utf8)), source: source) { _ in .unavailable("none") }
        let listed = try AssetLinksQuery.parse(source: .web(site: "https://source.example"), relation: nil).answer(served: [], resolved: resolved)
        let list = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(listed)) as? [String: Any])
        #expect(list["outcome"] as? String == "FETCH_ERROR" && list["errorCode"] as? [String] == ["FETCH_ERROR"], "\(list)")
        #expect(list["statements"] as? [Any] != nil && list["linked"] == nil && list["notFound"] == nil, "\(list)")
        #expect((list["debugString"] as? String)?.hasPrefix("No statements were found") == true, "\(list)")
        let checked = try AssetLinksQuery.parse(
            source: .web(site: "https://source.example"),
            relation: Self.creds,
            target: Self.site("https://target.example")
        )
        .answer(served: [], resolved: resolved)
        let check = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(checked)) as? [String: Any])
        #expect(check["linked"] as? Bool == false && check["statements"] == nil, "\(check)")
    }
}
