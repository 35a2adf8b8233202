import AppIdentity
import Testing
import WorldFile
import WorldGraph

/// `kclab world graph --text`: the same graph, for a terminal.
@Suite struct WorldGraphTextTests {
    @Test func theTextListsEachAppsGroupsInApplesOrderWithTheDefaultMarked() throws {
        let lines = WorldGraph(try Fixtures.demo()).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let appOne = try #require(lines.firstIndex(of: "  App One (com.example.AppOne, iOS)"))
        #expect(lines[appOne - 1] == "Example Inc. (ABCDE12345)", "the team's first app, by bundle ID")
        #expect(
            Array(lines[appOne + 1...appOne + 3]) == [
                "    1. ABCDE12345.com.example.SharedItems  keychain-access-groups  default, shared [B]",
                "    2. ABCDE12345.com.example.AppOne       application identifier",
                "    3. group.com.example.AppSuite          app group               shared [D]",
            ]
        )
        let mail = try #require(lines.firstIndex(of: "  Mail (com.example.MacMail, macOS): shares nothing"))
        #expect(
            Array(lines[mail + 1...mail + 2]) == [
                "    1. ABCDE12345.com.example.MacMail  application identifier  default",
                "    2. com.apple.token                 token group             read-only",
            ]
        )
        let thief = try #require(lines.firstIndex(of: "  Thief (com.other.Thief, iOS): refused at install, so it holds no group"))
        #expect(lines[thief + 1].hasPrefix("    entitlement-not-allowed: keychain-access-groups: 'ABCDE12345.com.example.SharedItems'"))
        #expect(lines.contains("  Snooper (com.other.Snooper, iOS): shares nothing"))
        #expect(lines.contains("  [B] ABCDE12345.com.example.SharedItems: App One (com.example.AppOne, iOS), App Two (com.example.AppTwo, iOS)"))
        let alone = try #require(lines.firstIndex(of: "Sharing nothing:"))
        #expect(lines[alone...].contains("  Snooper (com.other.Snooper, iOS)") && lines[alone...].contains("  Thief (com.other.Thief, iOS)"))
        #expect(!lines[alone...].contains("  App One (com.example.AppOne, iOS)"))
    }

    /// A name that would drive the terminal (an escape sequence) or reorder the line is shown with
    /// U+FFFD in place of each such character.
    @Test func theTextShowsNamesButNeverObeysThem() throws {
        let team = try TeamID("ABCDE12345")
        let world = World(
            name: "clear\u{1B}[2J",
            teams: [Team(id: team, name: "Team\u{202E}evil")],
            apps: [App(bundleID: try BundleID("com.example.Bell"), name: "Bell\u{07}\u{1B}]0;owned\u{07}", team: team)],
            devices: [],
            websites: []
        )
        let text = WorldGraph(world).text
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E }, "\(text)")
        #expect(text.contains("World 'clear\u{FFFD}[2J'"))
        #expect(text.contains("Team\u{FFFD}evil (ABCDE12345)"))
        #expect(text.contains("  Bell\u{FFFD}\u{FFFD}]0;owned\u{FFFD} (com.example.Bell, iOS): shares nothing"))
        #expect(text.contains("No group is held by two apps"))
    }
}
