import Foundation
import SiteAssociation
import Testing

/// Universal-link matching (spec associations.md c.3–c.5), as a rule table.
@Suite struct URLMatchingTests {
    static let file = AssociationFile.read(
        Data(
            """
            {"applinks": {"apps": [], "details": [
              {"appID": "ABCDE12345.com.example.legacy", "paths": ["/buy/*", "NOT /help/secret", "/help/*", "/foo/*/bar/201?/page"]},
              {"appIDs": ["ABCDE12345.com.example.app"], "components": [
                {"/": "/account/*", "exclude": true},
                {"/": "/shop/$(store)/*"},
                {"/": "/docs/*", "?": {"lang": "?*"}},
                {"/": "/search", "?": {"q": "*"}},
                {"/": "/CaseLess/*", "caseSensitive": false},
                {"/": "/wiki/%ED%8A%B9:*"},
                {"/": "/plain/é*", "percentEncoded": false},
                {"/": "/page", "#": "top"},
                {"/": "/$(lang)/home"},
                {"/": "/store/$(region)"}
              ]},
              {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*"}]}
            ], "substitutionVariables": {"store": ["east", "west"]}}}
            """.utf8
        )
    ).file!

    @Test(
        arguments: [
            ("ABCDE12345.com.example.legacy", "https://example.com/buy/shoes", "matched"),
            ("ABCDE12345.com.example.legacy", "https://example.com/buy", "no-match"),
            ("ABCDE12345.com.example.legacy", "https://example.com/help/secret", "blocked"),
            ("ABCDE12345.com.example.legacy", "https://example.com/help/faq?x=1#y", "matched"),
            ("ABCDE12345.com.example.legacy", "https://example.com/foo/a/b/bar/2019/page", "matched"),
            ("ABCDE12345.com.example.legacy", "https://example.com/foo/a/bar/20199/page", "no-match"),
            ("ABCDE12345.com.example.legacy", "https://example.com/Buy/shoes", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/account/settings", "blocked"),
            ("ABCDE12345.com.example.app", "https://example.com/shop/east/item", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/shop/north/item", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/docs/intro?lang=en", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/docs/intro", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/search", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/caseless/X", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/wiki/%ED%8A%B9:Main", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/plain/%C3%A9t%C3%A9", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/page#top", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/page#bottom", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/fr/home", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/ace/home", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/qq/home", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/store/GB", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/store/UK", "no-match"),
            ("ABCDE12345.com.example.app", "https://example.com/docs/intro?lang=en&lang=de", "matched"),
            ("ABCDE12345.com.example.app", "https://example.com/docs/intro?lang=en&lang=", "no-match"),
            ("ABCDE12345.com.example.other", "https://example.com/buy/x", "no-match"),
        ]
    )
    func matchesAsDevicesDo(appID: String, url: String, outcome: String) throws {
        let result = Self.file.match(try #require(URL(string: url)), appID: appID)
        #expect(result.outcome.rawValue == outcome, "\(url): \(result)")
    }

    @Test func onlyTheFirstEntryNamingAnAppIsRead() throws {
        // The app's second entry would match everything; the first decides, and matches nothing here.
        let result = Self.file.match(try #require(URL(string: "https://example.com/unlisted")), appID: "ABCDE12345.com.example.app")
        #expect(result.outcome == .noMatch)
    }

    @Test func iOS12ReadsOnlyAppIDAndPaths() throws {
        let url = try #require(URL(string: "https://example.com/shop/east/item"))
        #expect(Self.file.match(url, appID: "ABCDE12345.com.example.app", era: 12).outcome == .noMatch)
        #expect(
            Self.file.match(try #require(URL(string: "https://example.com/buy/x")), appID: "ABCDE12345.com.example.legacy", era: 12).outcome
                == .matched
        )
    }

    @Test func theMessagesReadLikeSwcutils() throws {
        let blocked = Self.file.match(try #require(URL(string: "https://example.com/help/secret")), appID: "ABCDE12345.com.example.legacy")
        #expect(blocked.description == #"Pattern "NOT /help/secret" blocked match"#)
        let matched = Self.file.match(try #require(URL(string: "https://example.com/search")), appID: "ABCDE12345.com.example.app")
        #expect(matched.description == #"Pattern {"/": "/search", "?": {"q": "*"}} matched"#)
    }
}
