import AppIdentity
import Foundation
import Testing
import WorldFile
import WorldGraph

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The overlap picture: what it draws where, and that the same world gives the same bytes.
@Suite struct OverlapPictureTests {
    /// Whether `svg` is well-formed XML.
    static func isWellFormed(_ svg: String) -> Bool {
        XMLParser(data: Data(svg.utf8)).parse()
    }

    @Test func theDemoWorldDrawsTheSharedRegionAndTheOtherTeamOutside() throws {
        let graph = WorldGraph(try Fixtures.demo())
        let svg = OverlapPicture(graph).svg
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(svg.prefix(80))")
        #expect(
            svg.contains(
                #"<g class="region" data-label="B" data-group="ABCDE12345.com.example.SharedItems" data-members="com.example.AppOne com.example.AppTwo">"#
            )
        )
        #expect(svg.contains(#"<g class="app" data-bundle-id="com.other.Snooper" data-platform="ios" data-team="OTHER98765">"#))
        #expect(svg.contains(#"<g class="app refused" data-bundle-id="com.other.Thief" data-platform="ios" data-team="OTHER98765">"#))
        #expect(svg.contains("shares nothing") && svg.contains("refused at install: entitlement-not-allowed"))
        #expect(svg.contains(#"data-group="ABCDE12345.com.example.SharedItems" data-source="keychain-access-groups" data-default="true""#))
        #expect(Self.isWellFormed(svg))

        // The region's bar stays in its team's band; the other team's band is below, outside it.
        let layout = OverlapLayout(graph)
        let column = try #require(layout.columns.first { $0.group == "ABCDE12345.com.example.SharedItems" })
        let own = try #require(layout.bands.first { $0.team == "ABCDE12345" })
        let other = try #require(layout.bands.first { $0.team == "OTHER98765" })
        #expect(column.barY >= own.y && column.barY + column.barHeight <= own.y + own.height)
        #expect(column.barY + column.barHeight < other.y || column.barY > other.y + other.height)
        #expect(column.dots.map(\.bundleID) == ["com.example.AppOne", "com.example.AppTwo"])
        let snooper = try #require(layout.rows.first { $0.bundleID == "com.other.Snooper" })
        #expect(snooper.name.y > other.y && snooper.name.y < other.y + other.height)
        #expect(layout.columns.allSatisfy { !$0.members.contains("com.other.") }, "no region holds another team's app")
    }

    @Test func theSameWorldGivesTheSameBytes() throws {
        let world = try Fixtures.demo()
        let first = OverlapPicture(WorldGraph(world)).svg
        #expect(OverlapPicture(WorldGraph(world)).svg == first)
        #expect(OverlapPicture(WorldGraph(try Fixtures.demo())).svg == first, "read again")
    }

    @Test(arguments: [1, 2, 3, 47] as [UInt64])
    func theOrderOfTheFileDoesNotMatter(_ seed: UInt64) throws {
        let world = try Fixtures.demo()
        let shuffled = Fixtures.shuffled(world, seed: seed)
        #expect(shuffled.apps.map(\.bundleID) != world.apps.map(\.bundleID), "the seed shuffles")
        #expect(WorldGraph(shuffled) == WorldGraph(world))
        #expect(Data(OverlapPicture(WorldGraph(shuffled)).svg.utf8) == Data(OverlapPicture(WorldGraph(world)).svg.utf8))
        #expect(WorldGraph(shuffled).text == WorldGraph(world).text)
    }

    /// Names come from a world file: Mustache escapes each, and what XML cannot hold is replaced.
    @Test func hostileNamesAreEscaped() throws {
        let team = try TeamID("ABCDE12345")
        let entitlements = Fixtures.entitlements(groups: ["ABCDE12345.com.example.SharedItems"])
        let world = World(
            name: "</svg><svg onload=\"alert(1)\">",
            teams: [Team(id: team, name: "Tom & Jerry <Inc>")],
            apps: [
                App(
                    bundleID: try BundleID("com.example.Hostile"),
                    name: "<script>alert(\"x\")</script> & 'co'",
                    team: team,
                    entitlements: entitlements
                ),
                App(bundleID: try BundleID("com.example.Bell"), name: "Bell\u{07}\u{1B}[2J\u{202E}txt", team: team, entitlements: entitlements),
            ],
            devices: [],
            websites: []
        )
        let svg = OverlapPicture(WorldGraph(world)).svg
        #expect(!svg.contains("<script"), "\(svg)")
        #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"))
        #expect(svg.contains("Tom &amp; Jerry &lt;Inc&gt;"))
        #expect(!svg.contains("onload=\"") && svg.contains("&lt;/svg&gt;&lt;svg onload=&quot;alert(1)&quot;&gt;"))
        #expect(svg.contains("Bell\u{FFFD}\u{FFFD}[2J\u{FFFD}txt"), "control and bidirectional characters are shown as U+FFFD")
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character but newlines")
        #expect(svg.components(separatedBy: "</svg>").count == 2, "one document")
        #expect(Self.isWellFormed(svg))
        #expect(svg.contains(#"data-members="com.example.Bell com.example.Hostile""#), "and the two still share their group")
    }

    /// A world without apps still gives a picture, saying so.
    @Test func anEmptyWorldIsAPictureToo() throws {
        let world = World(name: "empty", teams: [Team(id: try TeamID("ABCDE12345"), name: "Lonely")], apps: [], devices: [], websites: [])
        let svg = OverlapPicture(WorldGraph(world)).svg
        #expect(svg.contains("Lonely (ABCDE12345): no apps") && svg.contains("No group is held by two apps"))
        #expect(Self.isWellFormed(svg))
    }
}
