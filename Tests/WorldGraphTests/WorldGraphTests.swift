import AppIdentity
import Foundation
import Testing
import WorldFile
import WorldGraph
import WorldImport
import XcodeProject

/// The graph of a world: each app's groups as a device forms them, and the regions of overlap.
@Suite struct WorldGraphTests {
    static func id(_ bundleID: String, _ platform: Platform = .ios) throws -> WorldGraph.Build.ID {
        WorldGraph.Build.ID(bundleID: try BundleID(bundleID), platform: platform)
    }

    @Test func appOneAndAppTwoShareTheSharedItemsGroup() throws {
        let graph = WorldGraph(try Fixtures.demo())
        let shared = try #require(graph.region(try AccessGroup("ABCDE12345.com.example.SharedItems")))
        #expect(shared.members == [try Self.id("com.example.AppOne"), try Self.id("com.example.AppTwo")])
        #expect(shared.teams.map(\.rawValue) == ["ABCDE12345"])
        let suite = try #require(graph.region(try AccessGroup("group.com.example.AppSuite")))
        #expect(suite.members == [try Self.id("com.example.AppOne"), try Self.id("com.example.AppOne.Suite")])
        #expect(
            graph.regions.map(\.group.rawValue) == [
                "ABC1234DEF.amazingAppFamily", "ABCDE12345.com.example.SharedItems", "D3KQX62K1A.com.example.DemoApp",
                "group.com.example.AppSuite",
            ]
        )
    }

    /// The other team names a group with the same suffix, but under its own prefix it is another
    /// group; the app claiming the first team's group is refused at install and holds nothing.
    @Test func anotherTeamsAppsShareNothing() throws {
        let graph = WorldGraph(try Fixtures.demo())
        let other = try #require(graph.teams.first { $0.id.rawValue == "OTHER98765" })
        #expect(other.builds.map(\.id.bundleID.rawValue) == ["com.other.Snooper", "com.other.Thief"])
        for build in other.builds {
            #expect(graph.regions(of: build.id).isEmpty, "\(build.id)")
            #expect(graph.sharingNothing.contains(build.id))
        }
        #expect(graph.regions.allSatisfy { !$0.teams.map(\.rawValue).contains("OTHER98765") })
        let thief = try #require(graph.build(try Self.id("com.other.Thief")))
        #expect(thief.isRefused && thief.groups.isEmpty && thief.defaultGroup == nil)
        #expect(thief.refusals.map(\.rule) == [.entitlementNotAllowed])
        #expect(thief.refusals.first?.detail.contains("ABCDE12345.com.example.SharedItems") == true, "\(thief.refusals)")
    }

    /// Apple's order: keychain-access-groups, then the application identifier, then app groups;
    /// the first is the default. A Mac adds the read-only token group last.
    @Test(arguments: [
        ("com.example.AppOne", Platform.ios, ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppOne", "group.com.example.AppSuite"]),
        ("com.example.AppTwo", .ios, ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppTwo"]),
        ("com.example.AppOne.Suite", .ios, ["ABCDE12345.com.example.AppOne.Suite", "group.com.example.AppSuite"]),
        ("com.example.LegacyNotes", .ios, ["Q7LEGACY42.com.example.LegacyNotes"]),
        ("com.useyourloaf.amazingApp1", .ios, ["ABC1234DEF.amazingAppFamily", "ABC1234DEF.com.useyourloaf.amazingApp1"]),
        ("com.useyourloaf.amazingLite", .ios, ["ABC1234DEF.com.useyourloaf.amazingLite"]),
        ("com.other.Snooper", .ios, ["OTHER98765.com.example.SharedItems", "OTHER98765.com.other.Snooper"]),
        ("com.example.MacMail", .macos, ["ABCDE12345.com.example.MacMail", "com.apple.token"]),
        ("com.apple.mobilesafari", .ios, ["com.apple.cfnetwork", "0000000000.com.apple.mobilesafari"]),
    ])
    func groupsAreInApplesOrderWithTheDefaultFirst(_ bundleID: String, _ platform: Platform, _ expected: [String]) throws {
        let graph = WorldGraph(try Fixtures.demo())
        let build = try #require(graph.build(try Self.id(bundleID, platform)))
        #expect(build.groups.map(\.group.rawValue) == expected)
        #expect(build.defaultGroup?.rawValue == expected.first)
        #expect(build.groups.filter(\.isDefault).count == 1, "one default")
    }

    @Test func eachGroupSaysWhereItComesFrom() throws {
        let graph = WorldGraph(try Fixtures.demo())
        let appOne = try #require(graph.build(try Self.id("com.example.AppOne")))
        #expect(appOne.groups.map(\.source) == [.keychainAccessGroups, .applicationIdentifier, .applicationGroup])
        let mail = try #require(graph.build(try Self.id("com.example.MacMail", .macos)))
        #expect(mail.groups.map(\.source) == [.applicationIdentifier, .token])
        #expect(mail.groups.map(\.isDefault) == [true, false])
        #expect(graph.region(.token) == nil, "every Mac app holds the token group, and none shares through it")
    }

    /// docs/examples/Journal, imported as `kclab world import` does: every target's build is in the
    /// graph with the groups `kclab bundle verify` gives it (WorldImportCommandTests).
    @Test func anImportedProjectsAppsAndGroupsAreAllInTheGraph() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "worldgraph-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Fixtures.repository.appending(path: "docs/examples/Journal"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try ProjectImport(try XcodeProject(contentsOf: folder.appending(path: "Journal.xcodeproj")))
        let file = folder.appending(path: "world.yaml")
        try Data(try imported.worldYAML().utf8).write(to: file)
        let graph = WorldGraph(try World.load(contentsOf: file))

        let journal = try #require(graph.build(try Self.id("com.example.journal")))
        let mac = try #require(graph.build(try Self.id("com.example.journal", .macos)))
        let share = try #require(graph.build(try Self.id("com.example.journal.Share")))
        #expect(
            journal.groups.map(\.group.rawValue)
                == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal", "group.com.example.journal"]
        )
        #expect(
            mac.groups.map(\.group.rawValue)
                == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal", "ABCDE12345.com.example.journal", "com.apple.token"]
        )
        #expect(mac.groups.map(\.source) == [.keychainAccessGroups, .applicationIdentifier, .applicationGroup, .token], "the Mac app group")
        #expect(
            share.groups.map(\.group.rawValue)
                == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal.Share", "group.com.example.journal"]
        )
        for build in [journal, mac, share] { #expect(!build.isRefused, "\(build.refusals)") }
        let shared = try #require(graph.region(try AccessGroup("ABCDE12345.com.example.journal.shared")))
        #expect(shared.members == [journal.id, mac.id, share.id])
        #expect(graph.region(try AccessGroup("group.com.example.journal"))?.members == [journal.id, share.id])
        let imports = Set(imported.apps.map { "\($0.bundleID) \($0.platform)" })
        #expect(imports.isSubset(of: Set(graph.builds.map { "\($0.id.bundleID) \($0.id.platform)" })), "\(imports)")
    }

    @Test func regionsAreLabelledAToZThenAA() {
        #expect((0..<3).map(WorldGraph.label(ofRegion:)) == ["A", "B", "C"])
        #expect(WorldGraph.label(ofRegion: 25) == "Z")
        #expect(WorldGraph.label(ofRegion: 26) == "AA")
        #expect(WorldGraph.label(ofRegion: 27) == "AB")
    }
}
