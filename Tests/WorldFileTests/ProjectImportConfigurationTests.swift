import AppIdentity
import Foundation
import Testing
import XcodeProject

@testable import WorldImport

/// What `kclab world import` takes from a real project: every signed target kind, test bundles
/// skipped with a reason, and a configuration whose `.xcconfig` is git-ignored (IceCubesApp's
/// Debug) giving way to one that resolves.
@Suite struct ProjectImportConfigurationTests {
    /// A project whose Debug is based on `Secrets.xcconfig` (absent unless `withSecrets`) and
    /// whose Release is based on `Release.xcconfig`, with one target of each kind in `kinds`.
    static func project(kinds: [String], withSecrets: Bool = false, in folder: URL) throws -> URL {
        let bundle = folder.appending(path: "Lab.xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("DEVELOPMENT_TEAM = ABCDE12345\nBASE_ID = com.example.release\n".utf8).write(to: folder.appending(path: "Release.xcconfig"))
        if withSecrets {
            try Data("DEVELOPMENT_TEAM = ABCDE12345\nBASE_ID = com.example.debug\n".utf8).write(to: folder.appending(path: "Secrets.xcconfig"))
        }
        let targets = kinds.enumerated().map { index, kind in
            "T\(index) = {isa = PBXNativeTarget; buildConfigurationList = L\(index); name = Target\(index); productType = \"\(kind)\"; };"
        }
        let lists = kinds.indices.map { index in
            """
            L\(index) = {isa = XCConfigurationList; buildConfigurations = (D\(index), R\(index), ); };
            D\(index) = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "$(BASE_ID).t\(index)"; SDKROOT = macosx; }; name = Debug; };
            R\(index) = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "$(BASE_ID).t\(index)"; SDKROOT = macosx; }; name = Release; };
            """
        }
        let text = """
            // !$*UTF8*$!
            {
                archiveVersion = 1;
                objectVersion = 56;
                objects = {
                    \(targets.joined(separator: "\n"))
                    P = {isa = PBXProject; buildConfigurationList = LP; mainGroup = G; targets = (\(kinds.indices.map { "T\($0)" }.joined(separator: ", "))); };
                    G = {isa = PBXGroup; children = (FS, FR); sourceTree = "<group>"; };
                    FS = {isa = PBXFileReference; path = Secrets.xcconfig; sourceTree = "<group>"; };
                    FR = {isa = PBXFileReference; path = Release.xcconfig; sourceTree = "<group>"; };
                    LP = {isa = XCConfigurationList; buildConfigurations = (PD, PR, ); };
                    PD = {isa = XCBuildConfiguration; baseConfigurationReference = FS; buildSettings = {}; name = Debug; };
                    PR = {isa = XCBuildConfiguration; baseConfigurationReference = FR; buildSettings = {}; name = Release; };
                    \(lists.joined(separator: "\n"))
                };
                rootObject = P;
            }
            """
        try Data(text.utf8).write(to: bundle.appending(path: "project.pbxproj"))
        return bundle
    }

    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appending(path: "project-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test func aConfigurationThatDoesNotResolveGivesWayToOneThatDoes() throws {
        try Self.withFolder { folder in
            let url = try Self.project(kinds: ["com.apple.product-type.application"], in: folder)
            let imported = try ProjectImport(try XcodeProject(contentsOf: url))
            #expect(imported.configuration == "Release")
            #expect(imported.apps.map(\.bundleID) == [try BundleID("com.example.release.t0")])
            let note = try #require(imported.notes.first)
            #expect(note.contains("configuration Debug does not resolve") && note.contains("Secrets.xcconfig"), "\(imported.notes)")
            #expect(note.contains("--configuration Debug"), "says how to import Debug: \(note)")
        }
    }

    @Test func theFirstConfigurationIsKeptWhenItResolvesOrIsNamed() throws {
        try Self.withFolder { folder in
            let url = try Self.project(kinds: ["com.apple.product-type.application"], withSecrets: true, in: folder)
            #expect(try ProjectImport(try XcodeProject(contentsOf: url)).configuration == "Debug")
        }
        try Self.withFolder { folder in
            let url = try Self.project(kinds: ["com.apple.product-type.application"], in: folder)
            #expect(throws: XcodeProjectError.self, "a named configuration that does not resolve is not swapped") {
                _ = try ProjectImport(try XcodeProject(contentsOf: url), configuration: "Debug")
            }
        }
    }

    static let signed = [
        "com.apple.product-type.application", "com.apple.product-type.app-extension", "com.apple.product-type.xpc-service",
        "com.apple.product-type.application.on-demand-install-capable", "com.apple.product-type.application.watchapp2",
        "com.apple.product-type.watchkit2-extension", "com.apple.product-type.tool", "com.apple.product-type.system-extension",
        "com.apple.product-type.extensionkit-extension",
    ]

    @Test func everySignedKindIsAnAppAndATestBundleIsSkippedWithAReason() throws {
        try Self.withFolder { folder in
            let kinds = Self.signed + ["com.apple.product-type.bundle.unit-test", "com.apple.product-type.framework"]
            let url = try Self.project(kinds: kinds, withSecrets: true, in: folder)
            let imported = try ProjectImport(try XcodeProject(contentsOf: url))
            #expect(imported.apps.map(\.target) == Self.signed.indices.map { "Target\($0)" }, "\(imported.notes)")
            let test = try #require(imported.notes.first { $0.contains("Target\(Self.signed.count) ") })
            #expect(test.contains("test bundle runs inside its test host"), "\(test)")
            let library = "runs inside the program that loads it, with that program's entitlements"
            #expect(imported.notes.contains { $0.contains("Target\(Self.signed.count + 1) ") && $0.contains(library) })
        }
    }

    /// A folder that is not a project reads as the one `.xcodeproj` in it, as `xcodebuild` finds it;
    /// none or two is an error naming what to give.
    @Test func aFolderIsReadAsItsOneProject() throws {
        let refusal = { (url: URL) -> String in
            do {
                _ = try XcodeProject(contentsOf: url)
                return ""
            } catch {
                return "\(error)"
            }
        }
        try Self.withFolder { folder in
            let url = try Self.project(kinds: ["com.apple.product-type.application"], withSecrets: true, in: folder)
            let fromFolder = try ProjectImport(try XcodeProject(contentsOf: folder))
            #expect(fromFolder.apps.map(\.bundleID) == (try ProjectImport(try XcodeProject(contentsOf: url))).apps.map(\.bundleID))
            try FileManager.default.createDirectory(at: folder.appending(path: "Other.xcodeproj"), withIntermediateDirectories: true)
            #expect(refusal(folder).contains("holds 2 projects (Lab.xcodeproj, Other.xcodeproj): give PATH.xcodeproj"), "\(refusal(folder))")
        }
        try Self.withFolder { folder in
            #expect(refusal(folder).contains("holds no .xcodeproj: give PATH.xcodeproj"), "\(refusal(folder))")
        }
    }

    /// A watch, TV or Vision Pro target is imported as an iPhone app, and the note says so.
    @Test func aTargetForADeviceTheLabLacksIsAnIPhoneAppWithANote() {
        #expect(
            ProjectImport.standIn(sdkRoot: "watchos")?.hasPrefix("built for an Apple Watch (SDKROOT watchos), which the lab does not have") == true
        )
        #expect(ProjectImport.standIn(sdkRoot: "watchos")?.contains("on a real Apple Watch its keychain is that device's own") == true)
        #expect(ProjectImport.standIn(sdkRoot: "appletvos")?.contains("an Apple TV") == true)
        #expect(ProjectImport.standIn(sdkRoot: "iphoneos") == nil && ProjectImport.standIn(sdkRoot: "macosx") == nil)
        #expect(ProjectImport.standIn(sdkRoot: nil) == nil)
        #expect(ProjectImport.platforms(sdkRoot: "watchos", supported: nil) == [.ios])
    }
}
