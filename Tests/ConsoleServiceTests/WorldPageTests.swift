import AppIdentity
import ConsoleService
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WorldFile
import WorldGraph

/// The World page: its model says what a device decides (each build's groups in Apple's order,
/// the default first, refusals with their reasons), and the page shows exactly that, escaped.
@Suite struct WorldPageTests {
    static func page() throws -> WorldPage {
        WorldPage(WorldGraph(try Fixtures.demo()))
    }

    static func row(_ bundleID: String, _ platform: String = "ios", in page: WorldPage) throws -> WorldPage.AppRow {
        try #require(page.teams.flatMap(\.apps).first { $0.bundleID == bundleID && $0.platformKey == platform })
    }

    @Test func appOnesGroupsAreInApplesOrderWithTheDefaultMarked() throws {
        let page = try Self.page()
        let team = try #require(page.teams.first { $0.id == "ABCDE12345" })
        #expect(team.name == "Example Inc.")
        let appOne = try Self.row("com.example.AppOne", in: page)
        #expect(team.apps.contains { $0.bundleID == appOne.bundleID })
        #expect((appOne.name, appOne.platform) == ("App One", "iOS"))
        #expect(appOne.groups.map(\.name) == ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppOne", "group.com.example.AppSuite"])
        #expect(appOne.groups.map(\.position) == [1, 2, 3])
        #expect(appOne.groups.map(\.isDefault) == [true, false, false], "the first group is the default")
        #expect(appOne.groups.map(\.source) == ["keychain-access-groups", "application identifier", "app group"])
        #expect(appOne.groups.map(\.region) == ["B", "", "D"], "labelled as in the overlap picture")
        #expect(!appOne.refused && !appOne.sharesNothing && appOne.hasGroups)
    }

    @Test func aRefusedInstallShowsItsReasons() throws {
        let thief = try Self.row("com.other.Thief", in: try Self.page())
        #expect(thief.refused && thief.groups.isEmpty && !thief.hasGroups)
        #expect(thief.refusals.map(\.rule) == ["entitlement-not-allowed"])
        #expect(thief.refusals.first?.detail.contains("ABCDE12345.com.example.SharedItems") == true, "\(thief.refusals.map(\.detail))")
    }

    /// A row per platform build; a Mac's read-only token group is listed but is never the default.
    @Test func aMacBuildHasItsOwnRowWithTheTokenGroup() throws {
        let mail = try Self.row("com.example.MacMail", "macos", in: try Self.page())
        #expect(mail.platform == "macOS")
        #expect(mail.groups.map(\.name) == ["ABCDE12345.com.example.MacMail", "com.apple.token"])
        #expect(mail.groups.map(\.isDefault) == [true, false] && mail.groups.map(\.readOnly) == [false, true])
        #expect(mail.sharesNothing)
    }

    @Test func teamsAreByIDAndTheSummaryCounts() throws {
        let page = try Self.page()
        #expect(page.teams.map(\.id) == ["0000000000", "ABCDE12345", "BNCDNG2016", "D3KQX62K1A", "OTHER98765", "USEYRLOAF9"])
        let graph = WorldGraph(try Fixtures.demo())
        #expect(page.summary == "\(graph.builds.count) app builds of 6 teams; 4 groups shared; 1 refused at install.")
        #expect(
            page.navigation.map(\.href) == ["/", "/overlap", "/devices", "/associations", "/decisions"]
                && page.navigation.map(\.current) == [true, false, false, false, false]
        )
    }

    /// The page served at `/` shows App One's groups in that order, the default marked.
    @Test func thePageShowsTheModel() async throws {
        let html = try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: "/", method: .get, headers: [.cookie: Fixtures.cookie])
            #expect(response.status == .ok)
            return String(buffer: response.body)
        }
        #expect(html.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<!doctype html>"), "\(html.prefix(80))")
        #expect(html.contains("<title>World 'demo' · KeychainLab console</title>"))
        let row = try #require(html.range(of: #"<tr class="app" data-bundle-id="com.example.AppOne" data-platform="ios">"#))
        let rest = html[row.lowerBound...]
        let rowText = String(rest[..<(try #require(rest.range(of: "</tr>"))).lowerBound])
        let first = try #require(
            rowText.range(
                of:
                    #"<li class="group default shared" data-group="ABCDE12345.com.example.SharedItems" data-source="keychain-access-groups" data-default="true">"#
            )
        )
        let second = try #require(rowText.range(of: #"<li class="group" data-group="ABCDE12345.com.example.AppOne""#))
        let third = try #require(rowText.range(of: #"<li class="group shared" data-group="group.com.example.AppSuite""#))
        #expect(first.lowerBound < second.lowerBound && second.lowerBound < third.lowerBound, "Apple's order")
        #expect(rowText.components(separatedBy: "<span class=\"default-mark\">default</span>").count == 2, "one default")
        #expect(html.contains(#"<tr class="app refused" data-bundle-id="com.other.Thief" data-platform="ios">"#))
        #expect(html.contains("<code class=\"rule\">entitlement-not-allowed</code>"))
        #expect(html.contains(#"<a href="/" aria-current="page">World</a>"#))
        #expect(!html.contains("<script"), "no script")
    }

    /// Names come from a world file: the page shows them escaped, never as markup.
    @Test func hostileNamesAreEscaped() async throws {
        let team = try TeamID("ABCDE12345")
        let world = World(
            name: "<script>alert(1)</script>",
            teams: [Team(id: team, name: "Tom & Jerry <Inc>")],
            apps: [App(bundleID: try BundleID("com.example.Hostile"), name: "\"><img src=x onerror=alert(1)>\u{202E}", team: team)],
            devices: [],
            websites: []
        )
        let html = try await Fixtures.withConsole(world) { client in
            String(buffer: try await client.execute(uri: "/", method: .get, headers: [.cookie: Fixtures.cookie]).body)
        }
        #expect(!html.contains("<script") && !html.contains("<img src=x"), "\(html)")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("Tom &amp; Jerry &lt;Inc&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\u{FFFD}"), "and the override shown as U+FFFD")
    }
}
