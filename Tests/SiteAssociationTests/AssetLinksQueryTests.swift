import AssetLinks
import Foundation
import Testing

/// Requests to Google's API read as the API reads them: each shape of the query-parsing cases of
/// Google's compatibility suite (github.com/google/digitalassetlinks, `compatibility-tests/v1`,
/// 1000 to 1400: the numbers are its groups'), accepted, or refused with INVALID_QUERY and the
/// API's words first. The cases are the lab's own, written from the suite's descriptions.
@Suite struct AssetLinksQueryTests {
    static let print1 = (0..<32).map { String(format: "%02X", $0 * 9 % 256) }.joined(separator: ":")
    static let links = "delegate_permission/common.handle_all_urls"
    static let site = AssetLinksQuery.Fields.web(site: "https://source.example")
    static let app = AssetLinksQuery.Fields.androidApp(packageName: "org.example.app", fingerprint: print1)

    /// A list request (no target) or a check request, and the API's first words when it refuses it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var source: AssetLinksQuery.Fields? = AssetLinksQueryTests.site
        var relation: String? = AssetLinksQueryTests.links
        /// A check's target; nil with `check` false for a list.
        var target: AssetLinksQuery.Fields? = nil
        var check = false
        /// nil: the request is read.
        let refused: String?
        var testDescription: String { name }
    }

    static func asset(_ site: String) -> AssetLinksQuery.Fields { .web(site: site) }
    static func appFields(_ package: String?, _ fingerprint: String?) -> AssetLinksQuery.Fields {
        .androidApp(packageName: package, fingerprint: fingerprint)
    }

    /// The source of a list request (1001, 1002); the source of a check reads the same way (1201).
    static let sources: [Case] = [
        Case(name: "1001 an https site", refused: nil),
        Case(name: "1001 an http site", source: asset("http://source.example"), refused: nil),
        Case(name: "1001 http with its default port", source: asset("http://source.example:80"), refused: nil),
        Case(name: "1001 https with its default port", source: asset("https://source.example:443"), refused: nil),
        Case(name: "1001 scheme and host in upper case", source: asset("HTTPS://SOURCE.Example"), refused: nil),
        Case(name: "1001 an app", source: app, refused: nil),
        Case(name: "1002 another port", source: asset("https://source.example:8443"), refused: nil),
        Case(name: "1001 no source", source: nil, refused: "Request must contain a source asset query"),
        Case(name: "1001 neither web nor app", source: .unspecified, refused: "Must specify one of the asset types"),
        Case(name: "1001 web without a site", source: .web(site: nil), refused: "No site field"),
        Case(name: "1001 an empty site", source: asset(""), refused: "No site field"),
        Case(name: "1001 a port past 65535", source: asset("https://source.example:99999"), refused: "Invalid site"),
        Case(name: "1001 a path", source: asset("https://source.example/foo"), refused: "Invalid site"),
        Case(name: "1001 a final slash", source: asset("https://source.example/"), refused: "Invalid site"),
        Case(name: "1001 a query string", source: asset("https://source.example?foo"), refused: "Invalid site"),
        Case(name: "1001 a fragment", source: asset("https://source.example#foo"), refused: "Invalid site"),
        Case(name: "1001 an app without a package", source: appFields(nil, print1), refused: "No package_name field"),
        Case(name: "1001 an empty package", source: appFields("", print1), refused: "No package_name field"),
        Case(name: "1001 an app without a certificate", source: appFields("org.example.app", nil), refused: "Invalid sha256_fingerprint field"),
        Case(name: "1001 an empty fingerprint", source: appFields("org.example.app", ""), refused: "Invalid sha256_fingerprint field"),
        Case(
            name: "1001 a lower-case fingerprint",
            source: appFields("org.example.app", print1.lowercased()),
            refused: "Invalid sha256_fingerprint field"
        ),
        Case(
            name: "1001 a space before the fingerprint",
            source: appFields("org.example.app", " " + print1),
            refused: "Invalid sha256_fingerprint field"
        ),
        Case(
            name: "1001 a space after the fingerprint",
            source: appFields("org.example.app", print1 + " "),
            refused: "Invalid sha256_fingerprint field"
        ),
        Case(
            name: "1001 a fingerprint without colons",
            source: appFields("org.example.app", print1.replacingOccurrences(of: ":", with: "")),
            refused: "Invalid sha256_fingerprint field"
        ),
        Case(name: "1001 six octets", source: appFields("org.example.app", String(print1.prefix(17))), refused: "Invalid sha256_fingerprint field"),
    ]

    /// The relation of a list request (1101), where an empty or missing one lists every relation.
    static let listRelations: [Case] = [
        Case(name: "1101 a custom detail", relation: "delegate_permission/write_on_the_walls", refused: nil),
        Case(name: "1101 a dotted detail", relation: "delegate_permission/org.example.write_on_the_walls", refused: nil),
        Case(name: "1101 another kind", relation: "navigate/yellow_brick_road", refused: nil),
        Case(name: "1101 no relation: every one", relation: nil, refused: nil),
        Case(name: "1101 an empty relation: every one", relation: "", refused: nil),
        Case(name: "1101 a wildcard", relation: "delegate_permission/*", refused: "Invalid 'detail' field in relation string"),
        Case(name: "1101 an upper-case kind", relation: "INVALID_KIND/write", refused: "Invalid 'kind' field in relation string"),
        Case(name: "1101 no kind", relation: "/write", refused: "Invalid 'kind' field in relation string"),
        Case(name: "1101 a slash alone", relation: "/", refused: "Invalid 'kind' field in relation string"),
        Case(name: "1101 no slash", relation: "write_on_the_walls", refused: "Invalid relation string"),
        Case(name: "1101 a kind alone", relation: "delegate_permission", refused: "Invalid relation string"),
        Case(name: "1101 two slashes", relation: "delegate_permission/write/more", refused: "Invalid relation string"),
        Case(name: "1101 a comma", relation: "delegate_permission,write", refused: "Invalid relation string"),
        Case(name: "1101 no detail", relation: "delegate_permission/", refused: "Invalid 'detail' field in relation string"),
        Case(name: "1101 spaces in the detail", relation: "delegate_permission/write on walls", refused: "Invalid 'detail' field in relation string"),
        Case(name: "1101 a plus in the detail", relation: "delegate_permission/write+walls", refused: "Invalid 'detail' field in relation string"),
        Case(name: "1101 a bang in the detail", relation: "delegate_permission/write!", refused: "Invalid 'detail' field in relation string"),
        Case(
            name: "1101 upper case in the detail",
            relation: "delegate_permission/write_WALLS",
            refused: "Invalid 'detail' field in relation string"
        ),
        Case(name: "1101 a space after", relation: "delegate_permission/write ", refused: "Invalid 'detail' field in relation string"),
        Case(name: "1101 a space before", relation: " delegate_permission/write", refused: "Invalid 'kind' field in relation string"),
        Case(name: "1101 spaces around the slash", relation: "delegate_permission / write", refused: "Invalid 'kind' field in relation string"),
    ]

    /// What a check request adds (1301, 1401): a relation it must give, and a target.
    static let checks: [Case] = [
        Case(name: "1401 a site target", target: asset("https://target.example"), check: true, refused: nil),
        Case(name: "1401 an http target on port 88", target: asset("http://target.example:88"), check: true, refused: nil),
        Case(name: "1401 https with its default port", target: asset("https://target.example:443"), check: true, refused: nil),
        Case(name: "1401 an app target", target: app, check: true, refused: nil),
        Case(name: "1201 an app source", source: app, target: asset("https://target.example"), check: true, refused: nil),
        Case(name: "1301 a custom relation", relation: "navigate/yellow_brick_road", target: app, check: true, refused: nil),
        Case(name: "1301 no relation", relation: nil, target: app, check: true, refused: "Request must contain a relation string"),
        Case(name: "1301 an empty relation", relation: "", target: app, check: true, refused: "Request must contain a relation string"),
        Case(name: "1301 a wildcard", relation: "delegate_permission/*", target: app, check: true, refused: "Invalid 'detail' field"),
        Case(name: "1401 no target", target: nil, check: true, refused: "Request must contain a target asset query"),
        Case(name: "1401 neither web nor app", target: .unspecified, check: true, refused: "Must specify one of the asset types"),
        Case(name: "1401 a target without a site", target: .web(site: nil), check: true, refused: "No site field"),
        Case(name: "1401 a target with a path", target: asset("https://target.example/foo"), check: true, refused: "Invalid site"),
        Case(name: "1401 a target with a final slash", target: asset("https://target.example/"), check: true, refused: "Invalid site"),
        Case(name: "1401 an app target without a package", target: appFields(nil, print1), check: true, refused: "No package_name field"),
        Case(
            name: "1401 an app target in lower case",
            target: appFields("org.example.app", print1.lowercased()),
            check: true,
            refused: "Invalid sha256_fingerprint field"
        ),
    ]

    @Test(arguments: sources + listRelations + checks)
    func eachRequestIsReadOrRefusedAsTheSuiteExpects(_ testCase: Case) {
        do {
            let query: AssetLinksQuery
            if testCase.check {
                query = try AssetLinksQuery.parse(source: testCase.source, relation: testCase.relation, target: testCase.target)
            } else {
                query = try AssetLinksQuery.parse(source: testCase.source, relation: testCase.relation)
            }
            #expect(testCase.refused == nil, "read, not refused: \(query)")
            if case .list(_, let relation) = query, testCase.relation?.isEmpty ?? true {
                #expect(relation == nil, "an empty or missing relation lists every relation")
            }
        } catch {
            let expected = testCase.refused ?? "(read)"
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            let answer = AssetLinksAnswer(refused: error)
            #expect(answer.outcome == .queryParsingError && answer.errorCode == [.invalidQuery] && !answer.found)
        }
    }

    @Test func sitesCompareAsTheAPINormalisesThem() throws {
        let plain = try AssetLinksQuery.site("https://source.example")
        #expect(try AssetLinksQuery.site("HTTPS://SOURCE.example:443") == plain)
        #expect(try AssetLinksQuery.site("http://source.example:80") == (try WebAsset(site: "http://source.example")))
        #expect(try AssetLinksQuery.site("https://source.example:8443") != plain)
    }

    /// A site as a command names it: a domain is HTTPS; `kclab site check` also takes a final /.
    @Test(
        arguments: [
            ("example.com", false, "https://example.com", "example.com"),
            ("Example.com:8443", false, "https://example.com:8443", "example.com:8443"),
            ("https://example.com", false, "https://example.com", "example.com"),
            ("https://example.com:443", false, "https://example.com", "example.com"),
            ("http://example.com:8080", false, "http://example.com:8080", "example.com:8080"),
            ("https://example.com/", true, "https://example.com", "example.com"),
            ("https://example.com/", false, nil, nil),
            ("https://example.com/path", true, nil, nil),
            ("example.com/path", true, nil, nil),
            ("ftp://example.com", true, nil, nil),
        ] as [(String, Bool, String?, String?)]
    )
    func aCommandNamesASiteByDomainOrURL(_ text: String, _ finalSlash: Bool, _ site: String?, _ authority: String?) {
        let asset = try? WebAsset(argument: text, finalSlash: finalSlash)
        #expect(asset?.description == site, "\(text)")
        #expect(asset?.authority == authority, "\(text)")
    }
}
