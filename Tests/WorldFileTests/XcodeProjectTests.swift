import AppIdentity
import Foundation
import LabErrors
import Testing
import WorldFile
import WorldImport
import XcodeProject

/// `kclab world import`'s reading of an Xcode project: the old-style property list, the build
/// settings as Xcode expands them, and the world it makes (which `World.load` accepts).
@Suite struct XcodeProjectTests {
    /// docs/examples/Notes: a project as Xcode writes it, with the team at project level, an app
    /// and its widget extension with entitlements files, a framework, and a setting (SHARED_GROUP)
    /// the widget's entitlements name but the project does not set; copied to a temporary folder.
    static func project() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcodeproject-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "docs/examples/Notes"), to: folder)
        return folder.appending(path: "Notes.xcodeproj")
    }

    @Test func readsTargetsAndSettingsAsXcodeWritesThem() throws {
        let bundle = try Self.project()
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let project = try XcodeProject(contentsOf: bundle)
        #expect(project.name == "Notes" && project.configurations == ["Debug", "Release"])
        #expect(project.targets.map(\.name) == ["Notes", "Widget", "Kit"])
        #expect(project.targets.map(\.isSignedWithEntitlements) == [true, true, false])
        #expect(project.settings["Debug"]?["OTHER_LDFLAGS"] == "-ObjC $(inherited)", "a list is joined by spaces")
        let notes = BuildSettings(project: project, target: project.targets[0], configuration: "Debug", sdk: "iphoneos")
        #expect(notes.value("PRODUCT_BUNDLE_IDENTIFIER") == "com.example.My-Notes", "${…}, $(…) and :rfc1034identifier")
        #expect(notes.expand("$(AppIdentifierPrefix)x") == "ABCDE12345.x", "the team, inherited from the project level")
        #expect(notes.unresolved.isEmpty)
        let widgetOnMac = BuildSettings(project: project, target: project.targets[1], configuration: "Debug", sdk: "macosx")
        #expect(widgetOnMac.value("SDKROOT") == "macosx", "a conditional setting for the SDK")
        let release = BuildSettings(project: project, target: project.targets[0], configuration: "Release", sdk: "iphoneos")
        #expect(release.value("DEVELOPMENT_TEAM") == "ZZZZZ99999")
    }

    @Test func importsAWorldThatLoads() throws {
        let bundle = try Self.project()
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let imported = try ProjectImport(try XcodeProject(contentsOf: bundle))
        #expect(imported.apps.map(\.appID.rawValue) == ["ABCDE12345.com.example.My-Notes", "ABCDE12345.com.example.My-Notes.widget"])
        #expect(imported.apps[0].entitlements["keychain-access-groups"]?.strings == ["ABCDE12345.com.example.shared"])
        #expect(imported.notes.contains { $0.contains("Kit") && $0.contains("framework") })
        #expect(imported.notes.contains { $0.contains("Widget") && $0.contains("$(SHARED_GROUP)") }, "\(imported.notes)")
        let file = bundle.deletingLastPathComponent().appending(path: "world.yaml")
        try Data(try imported.worldYAML().utf8).write(to: file)
        let world = try World.load(contentsOf: file)
        // The world adds its browser (Safari, of the platform team) beside the imported apps.
        #expect(world.teams.map(\.id.rawValue).contains("ABCDE12345"))
        #expect(world.apps.filter { $0.team.rawValue == "ABCDE12345" }.count == 2 && world.devices.map(\.id) == ["iphone"])
        #expect(world.websites.map(\.domain) == ["notes.example.com"])
        let app = try #require(world.apps.first)
        #expect(app.entitlements.applicationGroups == ["group.com.example.notes"])

        // A site's own file instead of the generated one.
        let served = bundle.deletingLastPathComponent().appending(path: "served.json")
        try Data(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.My-Notes"]}}"#.utf8).write(to: served)
        try Data(try imported.worldYAML(siteFiles: ["notes.example.com": served.path]).utf8).write(to: file)
        let serving = try World.load(contentsOf: file)
        #expect(serving.websites.map(\.domain) == ["notes.example.com"])
    }

    @Test func aTeamGivenOverridesTheProjectsAndSettingsComeFromSet() throws {
        let bundle = try Self.project()
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let project = try XcodeProject(contentsOf: bundle)
        let imported = try ProjectImport(
            project,
            configuration: "Debug",
            team: try TeamID("TEAM123456"),
            settings: ["BASE_ID": "org.other", "SHARED_GROUP": "shared"]
        )
        #expect(imported.apps.map(\.appID.rawValue) == ["TEAM123456.org.other.My-Notes", "TEAM123456.org.other.My-Notes.widget"])
        #expect(imported.apps[1].entitlements["keychain-access-groups"]?.strings == ["TEAM123456.shared"])
        #expect(!imported.notes.contains { $0.contains("SHARED_GROUP") })
        #expect(throws: XcodeProjectError.self) { try ProjectImport(project, configuration: "Profile") }
    }

    /// The widget's team and group from `.xcconfig` files, as real projects keep them: the
    /// target's Debug configuration based on `Config/Widget.xcconfig` (a `<group>`-relative
    /// path), which includes `Shared.xcconfig`; the target's own settings still win over it.
    @Test func readsTheXCConfigFilesConfigurationsAreBasedOn() throws {
        let bundle = try Self.project()
        let folder = bundle.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = bundle.appending(path: "project.pbxproj")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "        C4 = {\n            isa = XCBuildConfiguration;",
            with: "        C4 = {\n            isa = XCBuildConfiguration;\n            baseConfigurationReference = X1 /* Widget.xcconfig */;"
        )
        text = text.replacingOccurrences(
            of: "        P1 /* Project object */ = {",
            with: """
                        G0 = {isa = PBXGroup; children = (G1, ); sourceTree = "<group>"; };
                        G1 = {isa = PBXGroup; children = (X1, ); path = Config; sourceTree = "<group>"; };
                        X1 = {isa = PBXFileReference; path = Widget.xcconfig; sourceTree = "<group>"; };
                        P1 /* Project object */ = {
                """
        )
        try Data(text.utf8).write(to: file)
        try FileManager.default.createDirectory(at: folder.appending(path: "Config"), withIntermediateDirectories: true)
        try Data("#include \"Shared.xcconfig\"\n// the widget's own\nPRODUCT_BUNDLE_IDENTIFIER = not.this.one\n".utf8)
            .write(to: folder.appending(path: "Config/Widget.xcconfig"))
        try Data("SHARED_GROUP = from.xcconfig // a comment\n#include? \"Missing.xcconfig\"\n".utf8).write(
            to: folder.appending(path: "Config/Shared.xcconfig")
        )
        let project = try XcodeProject(contentsOf: bundle)
        #expect(project.targets[1].configurationFiles["Debug"] == "Config/Widget.xcconfig")
        #expect(project.problems.isEmpty, "an #include? of a missing file is no problem: \(project.problems)")
        let selfNamed = BuildSettings(
            project: project,
            target: project.targets[1],
            configuration: "Debug",
            sdk: "iphoneos",
            overrides: ["SHARED_GROUP": "$(SHARED_GROUP).mine"]
        )
        #expect(selfNamed.value("SHARED_GROUP") == "from.xcconfig.mine", "a setting naming itself reads the level beneath")
        let imported = try ProjectImport(project)
        #expect(imported.apps[1].bundleID.rawValue == "com.example.My-Notes.widget", "the target's setting wins over its .xcconfig")
        #expect(imported.apps[1].entitlements["keychain-access-groups"]?.strings == ["ABCDE12345.from.xcconfig"])
        #expect(!imported.notes.contains { $0.contains("SHARED_GROUP") }, "\(imported.notes)")
    }

    /// docs/examples/Journal: a multiplatform app (`SDKROOT = auto`, iPhone and Mac) whose Mac
    /// build has entitlements of its own (`CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`), and an iOS share
    /// extension sharing its app group and keychain group: a build per platform, one world app.
    @Test func importsAMultiplatformTargetAsABuildPerPlatform() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcodeproject-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "docs/examples/Journal"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try ProjectImport(try XcodeProject(contentsOf: folder.appending(path: "Journal.xcodeproj")))
        #expect(imported.apps.map(\.bundleID.rawValue) == ["com.example.journal", "com.example.journal", "com.example.journal.Share"])
        #expect(imported.apps.map(\.platform) == [.ios, .macos, .ios])
        #expect(imported.apps[0].entitlementsFile == "Journal/Journal.entitlements")
        #expect(imported.apps[1].entitlementsFile == "Journal/JournalMac.entitlements", "the Mac SDK's own setting")
        #expect(imported.apps[1].entitlements["com.apple.security.application-groups"]?.strings == ["ABCDE12345.com.example.journal"])
        #expect(imported.apps[2].entitlements["keychain-access-groups"]?.strings == ["ABCDE12345.com.example.journal.shared"])
        #expect(imported.notes.isEmpty, "\(imported.notes)")

        let file = folder.appending(path: "world.yaml")
        try Data(try imported.worldYAML().utf8).write(to: file)
        let world = try World.load(contentsOf: file)
        #expect(world.devices.map(\.id) == ["iphone", "mac"])
        #expect(world.device("iphone")?.apps.map(\.rawValue).prefix(2) == ["com.example.journal", "com.example.journal.Share"], "and the browser")
        #expect(world.device("mac")?.apps.map(\.rawValue) == ["com.example.journal"])
        let journal = try BundleID("com.example.journal")
        #expect(world.app(journal, on: .macos)?.isMacBuild == true)
        #expect(world.app(journal, on: .macos)?.entitlements.applicationGroups == ["ABCDE12345.com.example.journal"])
        #expect(world.app(journal, on: .ios)?.entitlements.applicationGroups == ["group.com.example.journal"])
        let website = try #require(world.websites.first { $0.domain == "journal.example.com" })
        let site = try #require(website.aasa)
        let listed = String(decoding: site.json, as: UTF8.self).components(separatedBy: "ABCDE12345.com.example.journal\"").count - 1
        #expect(listed == 2, "the app ID once under webcredentials and once under applinks, not once per build")
    }

    /// One app from its entitlements file: the world expands its build variables as Xcode would.
    @Test func importsOneAppFromItsEntitlements() throws {
        let imported = try ProjectImport(
            entitlements: URL(fileURLWithPath: "docs/examples/AppOne.entitlements"),
            bundleID: try BundleID("com.example.AppOne"),
            team: try TeamID("ABCDE12345")
        )
        let file = FileManager.default.temporaryDirectory.appending(path: "one-app-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try imported.worldYAML().utf8).write(to: file)
        let world = try World.load(contentsOf: file)
        let app = try #require(world.apps.first { $0.bundleID.rawValue == "com.example.AppOne" })
        #expect(app.signedEntitlements.keychainAccessGroups?.allSatisfy { $0.hasPrefix("ABCDE12345.") } == true, "\(app.signedEntitlements)")
    }

    @Test func anXCConfigSaysWhatItCannotRead() {
        let folder = URL(fileURLWithPath: "/nonexistent")
        let loop = XCConfig("#include \"Loop.xcconfig\"\nA = 1\nnot a setting\n", at: folder.appending(path: "Loop.xcconfig"))
        #expect(loop.settings["A"] == "1")
        #expect(loop.problems.contains { $0.contains("cannot be read") } && loop.problems.contains { $0.contains("not a NAME = VALUE line") })
    }

    /// A file that includes itself twice would be read 2^16 times: the includes stop at 16 deep
    /// and 256 files opened, and say so.
    @Test func includesThatLoopEndWithAProblem() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "Loop.xcconfig")
        try Data(("A = 1\n" + String(repeating: "#include \"Loop.xcconfig\"\n", count: 2)).utf8).write(to: file)
        let loop = XCConfig(contentsOf: file)
        #expect(loop.settings["A"] == "1")
        #expect(loop.problems.contains { $0.contains("nested deeper than 16") }, "\(loop.problems)")
        #expect(loop.problems.contains { $0.contains("more than 256 files") } && loop.problems.count <= 64)
    }

    @Test(arguments: [
        ("{ a = b; ", "line 1, column 10: the file ends inside a dictionary"),
        ("{ a = (b c); }", "line 1, column 10: expected ',' or ')'"),
        ("{\n  a = \"b;\n}", "the file ends inside a quoted string"),
        ("{ a = b } x", "expected ';' after the value of 'a'"),
        ("{ a = b; } x", "line 1, column 12: text after the end"),
    ])
    func refusesBrokenSyntaxWithItsPlace(_ text: String, _ saying: String) {
        #expect {
            try OpenStepPlistReader.read(Array(text.utf8))
        } throws: { error in
            (error as? XcodeProjectError)?.message.contains(saying) == true
        }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "(", count: 200) + String(repeating: ")", count: 200)
        #expect(throws: XcodeProjectError.self) { try OpenStepPlistReader.read(Array(deep.utf8)) }
    }

    /// Settings that double at each level would write 2^40 characters, and a chain of thousands
    /// would recurse as deep (the complexity check found it): both are cut short and said.
    @Test(arguments: [40, 5000]) func settingsThatDoubleOrChainAreCutShort(_ levels: Int) throws {
        var settings = ["S0": "x"]
        for level in 1...levels { settings["S\(level)"] = levels > 100 ? "$(S\(level - 1))x" : "$(S\(level - 1))$(S\(level - 1))" }
        let project = try XcodeProject(
            .dictionary([
                "rootObject": .string("P"),
                "objects": .dictionary([
                    "P": .dictionary(["isa": .string("PBXProject"), "buildConfigurationList": .string("L"), "targets": .array([])]),
                    "L": .dictionary(["buildConfigurations": .array([.string("C")])]),
                    "C": .dictionary(["name": .string("Debug"), "buildSettings": .dictionary(settings.mapValues(OpenStepValue.string))]),
                ]),
            ]),
            name: "Bomb",
            sourceRoot: URL(fileURLWithPath: "/tmp")
        )
        let target = XcodeProject.Target(name: "T", productType: "com.apple.product-type.application", settings: [:], configurationFiles: [:])
        let expanded = BuildSettings(project: project, target: target, configuration: "Debug", sdk: "iphoneos")
        let value = expanded.value("S\(levels)") ?? ""
        #expect(value.utf8.count <= BuildSettings.maximumLength)
        #expect(!expanded.cut.isEmpty && expanded.unresolved.isEmpty, "the cut is said: \(expanded.cut)")
    }
}
