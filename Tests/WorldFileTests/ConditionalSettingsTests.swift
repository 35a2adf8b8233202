import Foundation
import Testing
import XcodeProject

/// Conditional settings and `.xcconfig` files as Xcode reads them: `[sdk=…]`, `[arch=…]` and
/// `[config=…]`, alone or together, `$(inherited)` in a conditional setting, `#include?`, and
/// Secretive's `:default=` for a setting an open-source checkout leaves unset.
@Suite struct ConditionalSettingsTests {
    static let settings = [
        "FLAGS": "-base", "FLAGS[sdk=iphoneos*]": "$(inherited) -ios", "FLAGS[sdk=macosx*]": "-mac",
        "CPU[arch=arm64]": "arm", "CPU[arch=x86_64]": "intel",
        "MODE": "plain", "MODE[config=Debug]": "debug",
        "BOTH[sdk=iphoneos*]": "one", "BOTH[sdk=iphoneos*][arch=arm64]": "two",
        "ALL[config=Debug][arch=*][sdk=*]": "all",
        "ODD[variant=profile]": "never",
    ]

    /// A project with `settings` at project level in Debug and Release, and one app target whose
    /// Debug configuration is based on `xcconfig`'s settings.
    static func project(
        _ settings: [String: String],
        xcconfig: [String: String] = [:]
    ) throws -> (project: XcodeProject, target: XcodeProject.Target) {
        let values = OpenStepValue.dictionary(settings.mapValues(OpenStepValue.string))
        let project = try XcodeProject(
            .dictionary([
                "rootObject": .string("P"),
                "objects": .dictionary([
                    "P": .dictionary(["isa": .string("PBXProject"), "buildConfigurationList": .string("L"), "targets": .array([])]),
                    "L": .dictionary(["buildConfigurations": .array([.string("D"), .string("R")])]),
                    "D": .dictionary(["name": .string("Debug"), "buildSettings": values]),
                    "R": .dictionary(["name": .string("Release"), "buildSettings": values]),
                ]),
            ]),
            name: "Conditions",
            sourceRoot: URL(fileURLWithPath: "/nonexistent"),
            readingFiles: false
        )
        let target = XcodeProject.Target(
            name: "App",
            productType: "com.apple.product-type.application",
            settings: [:],
            baseSettings: ["Debug": xcconfig]
        )
        return (project, target)
    }

    @Test(arguments: [
        ("FLAGS", "iphoneos", "arm64", "Debug", "-base -ios"),
        ("FLAGS", "macosx", "arm64", "Debug", "-mac"),
        ("FLAGS", "watchos", "arm64", "Debug", "-base"),
        ("CPU", "iphoneos", "arm64", "Debug", "arm"),
        ("CPU", "macosx", "x86_64", "Debug", "intel"),
        ("MODE", "iphoneos", "arm64", "Debug", "debug"),
        ("MODE", "iphoneos", "arm64", "Release", "plain"),
        ("BOTH", "iphoneos", "arm64", "Debug", "two"),
        ("BOTH", "iphoneos", "x86_64", "Debug", "one"),
        ("ALL", "macosx", "x86_64", "Debug", "all"),
        ("ALL", "macosx", "x86_64", "Release", "<unset>"),
        ("ODD", "iphoneos", "arm64", "Debug", "<unset>"),
    ])
    func conditionsChooseTheSetting(_ name: String, _ sdk: String, _ arch: String, _ configuration: String, _ expected: String) throws {
        let (project, target) = try Self.project(Self.settings)
        let settings = BuildSettings(project: project, target: target, configuration: configuration, sdk: sdk, arch: arch)
        #expect(settings.value(name) ?? "<unset>" == expected)
        #expect(settings.unresolved.isEmpty && settings.cut.isEmpty, "\(settings.cut)")
    }

    /// An `.xcconfig`'s conditional lines, however spaced, keep one key; a trailing `;` is
    /// dropped and a trailing `\` goes on on the next line.
    @Test func anXCConfigReadsConditionalLines() {
        let text = """
            FOO[sdk=iphoneos*] = a // a comment
            FOO [ sdk = macosx* ] [arch=arm64] = b;
            LIST = one \\
              two \\
              three
            NEXT = 1
            BROKEN[sdk=iphoneos* = x
            """
        let file = XCConfig(text, at: URL(fileURLWithPath: "/nonexistent/Conditions.xcconfig"))
        #expect(file.settings["FOO[sdk=iphoneos*]"] == "a")
        #expect(file.settings["FOO[sdk=macosx*][arch=arm64]"] == "b")
        #expect(file.settings["LIST"] == "one two three")
        #expect(file.settings["NEXT"] == "1")
        #expect(file.settings.count == 4, "\(file.settings)")
        #expect(file.problems.count == 1 && file.problems[0].contains(":7: not a NAME = VALUE line"), "\(file.problems)")
    }

    @Test(arguments: [("#include? \"Missing.xcconfig\"", true), ("#include \"Missing.xcconfig\"", false)])
    func anOptionalIncludeMayBeMissing(_ line: String, _ quiet: Bool) {
        let file = XCConfig("\(line)\nA = 1\n", at: URL(fileURLWithPath: "/nonexistent/Base.xcconfig"))
        #expect(file.settings == ["A": "1"])
        #expect(file.problems.isEmpty == quiet, "\(file.problems)")
    }

    /// Secretive's `Config.xcconfig`: `#include? "OpenSource.xcconfig"`, then the bundle ID and
    /// team from `…_OSS` settings with `:default=` for a checkout without that file.
    @Test(arguments: [false, true])
    func secretivesDefaultsAndItsOptionalInclude(_ withOverrides: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "xcconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            #include? "OpenSource.xcconfig"

            SECRETIVE_BASE_BUNDLE_ID = $(SECRETIVE_BASE_BUNDLE_ID_OSS:default=com.maxgoedjen.Secretive)
            SECRETIVE_DEVELOPMENT_TEAM = $(SECRETIVE_DEVELOPMENT_TEAM_OSS:default=Z72PRUAWF6)
            """.utf8
        ).write(to: folder.appending(path: "Config.xcconfig"))
        if withOverrides {
            try Data("SECRETIVE_BASE_BUNDLE_ID_OSS = org.fork.Secretive\nSECRETIVE_DEVELOPMENT_TEAM_OSS = ABCDE12345\n".utf8)
                .write(to: folder.appending(path: "OpenSource.xcconfig"))
        }
        let file = XCConfig(contentsOf: folder.appending(path: "Config.xcconfig"))
        #expect(file.problems.isEmpty, "\(file.problems)")
        let (project, target) = try Self.project(
            ["PRODUCT_BUNDLE_IDENTIFIER": "$(SECRETIVE_BASE_BUNDLE_ID).Host", "DEVELOPMENT_TEAM[sdk=macosx*]": "$(SECRETIVE_DEVELOPMENT_TEAM)"],
            xcconfig: file.settings
        )
        let settings = BuildSettings(project: project, target: target, configuration: "Debug", sdk: "macosx")
        let expected = withOverrides ? ("org.fork.Secretive.Host", "ABCDE12345") : ("com.maxgoedjen.Secretive.Host", "Z72PRUAWF6")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER") == expected.0)
        #expect(settings.value("DEVELOPMENT_TEAM") == expected.1)
        #expect(settings.expand("$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)") == "\(expected.1).\(expected.0)")
        #expect(settings.unresolved.isEmpty && settings.cut.isEmpty, "\(settings.unresolved) \(settings.cut)")
    }

    /// A reference never closed and a cycle in a project are said, and the rest still expands.
    @Test func aBrokenProjectSettingIsSaid() throws {
        let (project, target) = try Self.project(["A": "$(B)", "B": "$(A)x", "OPEN": "x$(NAME", "ID": "$(TARGET_NAME:lower)"])
        let settings = BuildSettings(project: project, target: target, configuration: "Debug", sdk: "iphoneos")
        #expect(settings.value("A") == "x")
        #expect(settings.value("OPEN") == "x$(NAME")
        #expect(settings.value("ID") == "app")
        #expect(settings.cut.contains { $0.contains("refers to itself") }, "\(settings.cut)")
        #expect(settings.cut.contains { $0.contains("'$(NAME' in $(OPEN) is never closed") }, "\(settings.cut)")
    }
}
