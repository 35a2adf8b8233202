import Foundation
import Testing
import WorldTestSupport

/// `kclab assetlinks check`, `kclab assetlinks list` and `kclab site check` as a user runs them,
/// on local files (`--file`): a query that finds nothing exits 1, a web target is asked with
/// `--target`, `--verdict` picks the reader whose verdict sets the exit status, and a site is
/// named by its domain or its https URL.
@Suite struct AssetLinksCommandTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let other = (0..<32).map { _ in "AB" }.joined(separator: ":")
    static let links = "delegate_permission/common.handle_all_urls"
    static let creds = "delegate_permission/common.get_login_creds"
    static let appStatement =
        #"{"relation":["\#(links)","\#(creds)"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(fingerprint)"]}}"#

    /// The lists the cases read, by name (`@NAME` in a case's arguments is its path).
    static let files: [String: String] = [
        "good": #"[\#(appStatement), {"relation":["\#(creds)"],"target":{"namespace":"web","site":"https://t.example"}}]"#,
        "empty": "[]",
        "bad-among-good": "[\(appStatement), {}]",
        "self-include": #"[\#(appStatement), {"include":"https://example.com/.well-known/assetlinks.json"}]"#,
        "number":
            #"[{"relation":["\#(links)","\#(creds)"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(fingerprint)"]},"priority":1}]"#,
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let status: Int32
        /// Words the output (stdout, or stderr for a usage error) holds.
        var says: String? = nil
        var testDescription: String { name }
    }

    static let app = ["--package", "com.example.app", "--fingerprint", fingerprint]

    static let cases: [Case] = [
        Case(name: "an app the list links", arguments: ["check", "example.com", "--file", "@good"] + app, status: 0),
        Case(
            name: "an app under a certificate the list does not name",
            arguments: ["check", "example.com", "--file", "@good", "--package", "com.example.app", "--fingerprint", other],
            status: 1,
            says: "FAIL linked"
        ),
        Case(name: "an empty list", arguments: ["check", "example.com", "--file", "@empty"], status: 1, says: "No statements were found"),
        Case(
            name: "a relation a statement gives",
            arguments: ["check", "example.com", "--file", "@good", "--relation", creds],
            status: 0,
            says: "gives \(creds) to 2 targets"
        ),
        Case(
            name: "a relation no statement gives",
            arguments: ["check", "example.com", "--file", "@good", "--relation", "navigate/yellow_brick_road"],
            status: 1,
            says: "no statement of https://example.com gives navigate/yellow_brick_road"
        ),
        Case(
            name: "a web target the list links",
            arguments: ["check", "example.com", "--file", "@good", "--relation", creds, "--target", "https://t.example"],
            status: 0,
            says: "PASS linked: https://example.com links https://t.example by \(creds)"
        ),
        Case(
            name: "a web target the list does not link",
            arguments: ["check", "example.com", "--file", "@good", "--relation", creds, "--target", "https://other.example"],
            status: 1,
            says: "does not link https://other.example"
        ),
        Case(
            name: "a web target without a relation",
            arguments: ["check", "example.com", "--file", "@good", "--target", "https://t.example"],
            status: 2,
            says: "Request must contain a relation string"
        ),
        Case(
            name: "a web target with a path",
            arguments: ["check", "example.com", "--file", "@good", "--relation", creds, "--target", "https://t.example/"],
            status: 2,
            says: "Invalid site"
        ),
        Case(
            name: "an app and a site at once",
            arguments: ["check", "example.com", "--file", "@good", "--target", "https://t.example"] + app,
            status: 2
        ),
        Case(
            name: "a wildcard relation",
            arguments: ["check", "example.com", "--file", "@good", "--relation", "delegate_permission/*"],
            status: 2,
            says: "Invalid 'detail' field in relation string"
        ),
        Case(
            name: "a bad statement among good ones, both verdicts",
            arguments: ["check", "example.com", "--file", "@bad-among-good"] + app,
            status: 1,
            says: "Google's API fails and Android's verifier passes"
        ),
        Case(
            name: "a bad statement among good ones, Android's verdict",
            arguments: ["check", "example.com", "--file", "@bad-among-good", "--verdict", "android"] + app,
            status: 0
        ),
        Case(
            name: "a bad statement among good ones, Google's verdict",
            arguments: ["check", "example.com", "--file", "@bad-among-good", "--verdict", "google"] + app,
            status: 1
        ),
        Case(
            name: "a self-include, both verdicts",
            arguments: ["check", "example.com", "--file", "@self-include"] + app,
            status: 1,
            says: "self-include"
        ),
        Case(
            name: "a self-include, Android's verdict",
            arguments: ["check", "example.com", "--file", "@self-include", "--verdict", "android"] + app,
            status: 0
        ),
        Case(
            name: "a number in a statement, Google's verdict",
            arguments: ["check", "example.com", "--file", "@number", "--verdict", "google"] + app,
            status: 0
        ),
        Case(
            name: "a number in a statement, Android's verdict",
            arguments: ["check", "example.com", "--file", "@number", "--verdict", "android"] + app,
            status: 1,
            says: "FAILURE_UNKNOWN"
        ),
        Case(name: "an unknown verdict", arguments: ["check", "example.com", "--file", "@good", "--verdict", "apple"] + app, status: 2),
        Case(name: "list an empty list", arguments: ["list", "example.com", "--file", "@empty"], status: 1, says: "No statements were found"),
        Case(
            name: "list a relation no statement gives",
            arguments: ["list", "example.com", "--file", "@good", "--relation", "navigate/yellow_brick_road"],
            status: 1,
            says: "No statements were found with relation navigate/yellow_brick_road"
        ),
        Case(
            name: "list a relation",
            arguments: ["list", "example.com", "--file", "@good", "--relation", creds],
            status: 0,
            says: "2 statements for https://example.com"
        ),
        Case(
            name: "list an empty relation: every one",
            arguments: ["list", "example.com", "--file", "@good", "--relation", ""],
            status: 0,
            says: "3 statements"
        ),
    ]

    /// Runs `kclab assetlinks ARGUMENTS` with each `@NAME` replaced by the path of that list.
    static func assetlinks(_ arguments: [String], in folder: URL) throws -> ProgramResult {
        for (name, body) in files { try Data(body.utf8).write(to: folder.appending(path: "\(name).json")) }
        let resolved = arguments.map { $0.hasPrefix("@") ? folder.appending(path: "\($0.dropFirst()).json").path : $0 }
        return try run(kclab, ["assetlinks"] + resolved)
    }

    @Test(arguments: cases)
    func eachQueryExitsAsItsAnswerSays(_ testCase: Case) async throws {
        try await withTemporaryDirectory { folder in
            let result = try Self.assetlinks(testCase.arguments, in: folder)
            #expect(result.status == testCase.status, "\(result.stdout)\(result.stderr)")
            if let says = testCase.says {
                let output = testCase.status == 2 ? result.stderr : result.stdout
                #expect(output.contains(says), "\(result.stdout)\(result.stderr)")
            }
            #expect(!result.stderr.contains("Fatal error"))
        }
    }

    /// What found nothing is in the JSON: `linked: false` for a check, Google's code for a list.
    @Test func theJSONSaysWhatFoundNothing() async throws {
        try await withTemporaryDirectory { folder in
            let check = try Self.assetlinks(
                ["check", "example.com", "--file", "@good", "--relation", Self.creds, "--target", "https://other.example", "--json"],
                in: folder
            )
            let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stderr)")
            let link = (report["links"] as? [[String: Any]])?.first
            #expect(check.status == 1 && link?["site"] as? String == "https://other.example" && link?["linked"] as? Bool == false, "\(report)")
            #expect(report["googlePassed"] as? Bool == false && report["verdict"] as? String == "both", "\(report)")

            let list = try Self.assetlinks(["list", "example.com", "--file", "@empty", "--json"], in: folder)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any], "\(list.stderr)")
            #expect(
                list.status == 1 && answer["errorCode"] as? [String] == ["FETCH_ERROR"] && answer["outcome"] as? String == "FETCH_ERROR",
                "\(answer)"
            )
            #expect((answer["debugString"] as? String)?.contains("No statements were found") == true, "\(answer)")
        }
    }

    /// `kclab site check` takes the site as `kclab aasa check` does: a domain or its https URL.
    @Test func siteCheckTakesAnHTTPSURL() async throws {
        try await withTemporaryDirectory { folder in
            let aasa = folder.appending(path: "aasa.json")
            try Data(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#.utf8).write(to: aasa)
            let links = folder.appending(path: "assetlinks.json")
            try Data("[\(Self.appStatement)]".utf8).write(to: links)
            func check(_ site: String) throws -> ProgramResult {
                try run(
                    kclab,
                    [
                        "site", "check", site, "--aasa-file", aasa.path, "--assetlinks-file", links.path, "--app", "ABCDE12345.com.example.app",
                        "--package", "com.example.app:\(Self.fingerprint)",
                    ]
                )
            }
            let domain = try check("example.com")
            #expect(domain.status != 2, "\(domain.stderr)")
            for url in ["https://example.com", "https://example.com/", "HTTPS://Example.com:443"] {
                let named = try check(url)
                #expect(named.status == domain.status && named.stdout == domain.stdout, "\(url): \(named.stdout)\(named.stderr)")
            }
            for refused in ["http://example.com", "https://example.com/path", "example.com/path"] {
                let result = try check(refused)
                #expect(result.status == 2, "\(refused): \(result.stdout)\(result.stderr)")
            }
        }
    }

    /// `kclab site check --verdict`: whose reading of the Android file decides the exit status,
    /// the app-links comparison included, as for `kclab assetlinks check`; both stay in the report.
    @Test(arguments: [
        ("number", "both", Int32(1)), ("number", "google", 0), ("number", "android", 1),
        ("bad-among-good", "both", 1), ("bad-among-good", "android", 0), ("bad-among-good", "google", 1),
    ])
    func siteCheckFollowsTheVerdictAskedFor(_ list: String, _ verdict: String, _ status: Int32) async throws {
        try await withTemporaryDirectory { folder in
            let aasa = folder.appending(path: "aasa.json")
            let file =
                #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*"}]}]}}"#
            try Data(file.utf8).write(to: aasa)
            let links = folder.appending(path: "assetlinks.json")
            try Data(try #require(Self.files[list]).utf8).write(to: links)
            let result = try run(
                kclab,
                [
                    "site", "check", "example.com", "--aasa-file", aasa.path, "--assetlinks-file", links.path,
                    "--app", "ABCDE12345.com.example.app", "--package", "com.example.app:\(Self.fingerprint)", "--verdict", verdict, "--json",
                ]
            )
            #expect(result.status == status, "\(result.stdout)\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
            let android = try #require(report["android"] as? [String: Any])
            #expect(android["verdict"] as? String == verdict && android["googlePassed"] != nil && android["androidPassed"] != nil, "\(android)")
        }
    }
}
