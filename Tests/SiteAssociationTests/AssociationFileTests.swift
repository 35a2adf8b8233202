import Foundation
import SiteAssociation
import Testing

/// Reading apple-app-site-association files: syntax with places, both applinks formats, and the
/// schema's errors and warnings (spec associations.md c.6).
@Suite struct AssociationFileTests {
    static func read(_ text: String) -> AssociationFile.Reading {
        AssociationFile.read(Data(text.utf8))
    }

    static func failures(_ reading: AssociationFile.Reading) -> [Check] { reading.checks.filter { $0.result == .fail } }
    static func warnings(_ reading: AssociationFile.Reading) -> [Check] { reading.checks.filter { $0.result == .warn } }

    @Test func readsSeed002sFile() throws {
        let reading = Self.read(#"{"webcredentials": {"apps": ["D3KQX62K1A.com.example.DemoApp", "D3KQX62K1A.com.example.DemoAdminApp"]}}"#)
        #expect(Self.failures(reading).isEmpty && Self.warnings(reading).isEmpty)
        let file = try #require(reading.file)
        #expect(file.appIDs(for: .webcredentials) == ["D3KQX62K1A.com.example.DemoApp", "D3KQX62K1A.com.example.DemoAdminApp"])
        #expect(file.appIDs(for: .applinks).isEmpty)
    }

    @Test(
        arguments: [
            ("{\"webcredentials\": {\"apps\": [\"A\",]}}", "1:34", "trailing comma"),
            ("{\n  \"webcredentials\": {\n    \"apps\": [\u{201C}x\u{201D}]\n  }\n}", "3:14", "curly double quote"),
            ("{\"a\": 1} // comment", "1:10", "after the JSON value"),
            ("{'webcredentials': {}}", "1:2", "a key in double quotes"),
            ("{\"a\":\u{00A0}1}", "1:6", "no-break space"),
            ("{\"apps\": [\"x\"", "1:14", "end of file"),
        ]
    )
    func syntaxErrorsNameTheirPlace(text: String, place: String, words: String) {
        let failure = Self.failures(Self.read(text)).first
        #expect(failure?.rule == .jsonSyntax)
        #expect(failure?.detail.contains("at \(place)") == true, "\(failure?.detail ?? "")")
        #expect(failure?.detail.contains(words) == true, "\(failure?.detail ?? "")")
    }

    @Test func readsBothApplinksFormats() throws {
        let reading = Self.read(
            """
            {"applinks": {"apps": [], "details": [
              {"appID": "ABCDE12345.com.example.old", "paths": ["/buy/*", "NOT /buy/secret"]},
              {"appIDs": ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"],
               "components": [{"/": "/help/*", "?": {"lang": "$(lang)"}, "#": "top", "exclude": false, "caseSensitive": false,
                               "percentEncoded": true, "comment": "help"}],
               "defaults": {"caseSensitive": false}}
            ], "defaults": {"percentEncoded": false}, "substitutionVariables": {"shop": ["store", "shop"]}}}
            """
        )
        #expect(Self.failures(reading).isEmpty, "\(reading.checks)")
        let links = try #require(reading.file?.appLinks)
        #expect(links.details.count == 2)
        #expect(links.details[0].paths == ["/buy/*", "NOT /buy/secret"])
        let component = try #require(links.details[1].components?.first)
        #expect(component.path == "/help/*" && component.query == .items(["lang": "$(lang)"]) && component.fragment == "top")
        #expect(component.caseSensitive == false && component.percentEncoded == true)
        #expect(links.details[1].defaults.caseSensitive == false && links.defaults.percentEncoded == false)
        #expect(links.substitutionVariables["shop"] == ["store", "shop"])
        #expect(reading.file?.appIDs(for: .applinks).count == 3)
    }

    @Test(
        arguments: [
            (#"[1, 2]"#, "top-level-object"),
            (#"{"webcredentials": ["A.b"]}"#, "service-type"),
            (#"{"webcredentials": {"apps": "ABCDE12345.a"}}"#, "apps-type"),
            (#"{"webcredentials": {"apps": [1]}}"#, "apps-type"),
            (#"{"applinks": {"details": {"ABCDE12345.a": {"paths": ["*"]}}}}"#, "details-type"),
            (#"{"applinks": {"details": [{"appIDs": "ABCDE12345.a", "components": []}]}}"#, "app-id-type"),
            (#"{"applinks": {"details": [{"appID": 7, "paths": ["*"]}]}}"#, "app-id-type"),
            (#"{"applinks": {"details": [{"appID": "ABCDE12345.a", "paths": "*"}]}}"#, "paths-type"),
            (#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.a"], "components": [{"/": 5}]}]}}"#, "component-type"),
            (#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.a"], "components": [{"/": "/$(nope)/*"}]}]}}"#, "undefined-variable"),
        ]
    )
    func schemaErrorsFail(text: String, rule: String) {
        let failures = Self.failures(Self.read(text))
        #expect(failures.contains { $0.rule.rawValue == rule }, "\(failures)")
    }

    @Test(
        arguments: [
            (#"{"webcredentials": {"apps": ["com.example.app"]}}"#, "app-id-format"),
            (#"{"webcredentials": {"apps": ["$(TeamIdentifierPrefix)com.example.app"]}}"#, "app-id-format"),
            (#"{"webcredentials": {"apps": ["ABCDE12345.a"]}, "extra": 1}"#, "unknown-key"),
            (#"{"applinks": {"details": [{"appID": "ABCDE12345.a", "paths": ["*"]}]}}"#, "applinks-apps"),
            (#"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.a", "paths": ["*", "/x"]}]}}"#, "unreachable-pattern"),
            (#"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.a", "paths": ["product/*"]}]}}"#, "pattern-slash"),
            (
                #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.a", "paths": ["/a"]}, {"appID": "ABCDE12345.a", "paths": ["/b"]}]}}"#,
                "app-id-repeated"
            ),
            (
                #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.a"], "components": [{"?": {"k": "*"}, "exclude": true}]}]}}"#,
                "exclude-wildcard-item"
            ),
            ("\u{FEFF}{\"webcredentials\": {\"apps\": [\"ABCDE12345.a\"]}}", "byte-order-mark"),
        ]
    )
    func doubtfulThingsWarn(text: String, rule: String) {
        let reading = Self.read(text)
        #expect(Self.failures(reading).isEmpty, "\(reading.checks)")
        #expect(Self.warnings(reading).contains { $0.rule.rawValue == rule }, "\(reading.checks)")
    }

    @Test func theSizeLimitIs131072Bytes() {
        let prefix = #"{"webcredentials": {"apps": ["ABCDE12345.a"]}, "pad": ""#
        let suffix = "\"}"
        let exact = prefix + String(repeating: "x", count: 131_072 - prefix.utf8.count - suffix.utf8.count) + suffix
        #expect(exact.utf8.count == 131_072)
        #expect(!Self.read(exact).failed)
        #expect(Self.failures(Self.read(exact + " ")).first?.rule == .sizeLimit)
    }
}

/// Hostile files get a verdict with a reason, never a crash.
@Suite struct HostileFileTests {
    @Test func deeplyNestedJSONIsRefusedNotRecursedInto() {
        let nested = String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000)
        let reading = AssociationFile.read(Data(nested.utf8))
        #expect(reading.failed)
        #expect(reading.checks.contains { $0.rule == .jsonSyntax && $0.detail.contains("nesting deeper than 512") })
    }

    @Test(arguments: [
        Data([0xFF, 0xFE, 0x00]), Data(repeating: 0, count: 64), Data("{\"a\": \"\u{0}\"}".utf8),
        Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]),
    ])
    func garbageIsNotJSON(bytes: Data) {
        let reading = AssociationFile.read(bytes)
        #expect(reading.failed && reading.file == nil)
    }
}
