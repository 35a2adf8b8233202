import AppIdentity
import Foundation

/// A target's build settings in one configuration, for one SDK and architecture, expanded as
/// Xcode expands them, by the lab's one expander (AppIdentity's `BuildSettingExpander`, lenient as
/// Xcode is): `$(NAME)`, `${NAME}` and `$NAME`, names made of references (`$(FOO_$(BAR))`), the
/// operators (`:lower`, `:rfc1034identifier`, `:default=VALUE`…), `$(inherited)` (the level
/// beneath: the target's settings, its `.xcconfig`, the project's settings, the project's
/// `.xcconfig`, then Xcode's defaults), conditional settings (`NAME[sdk=iphoneos*][arch=arm64]`,
/// `[config=Debug]`), and `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` from the
/// development team. A name that resolves to nothing is recorded (``unresolved``), never guessed;
/// each setting is expanded once (memoized), a cycle and a chain deeper than ``maximumDepth`` are
/// cut, an expansion longer than ``maximumLength`` is cut short, and all expansions together write
/// at most ``budget`` characters, so a hostile project (settings that double at each level) costs
/// bounded time; each cut is said (``cut``).
public final class BuildSettings {
    /// Longer than any real setting.
    public static let maximumLength = BuildSettingExpander.Limits.standard.length
    /// More than every setting of a real target expanded together.
    public static let budget = BuildSettingExpander.Limits.standard.budget
    /// Deeper than settings that refer to settings ever go in a real project.
    public static let maximumDepth = BuildSettingExpander.Limits.standard.depth

    private var expander: BuildSettingExpander

    /// The names that resolved to nothing, in the order met.
    public var unresolved: [String] { expander.unresolved }
    /// What could not be expanded as written, one sentence each: a cycle, a chain too deep, a
    /// value too long, a reference never closed, an operator Xcode does not have.
    public var cut: [String] { expander.problems }

    /// The settings of `target` in `configuration` built for `sdk` (`iphoneos`, `macosx`) and
    /// `arch`, with `overrides` above them (as `xcodebuild NAME=VALUE` gives).
    public init(
        project: XcodeProject,
        target: XcodeProject.Target,
        configuration: String,
        sdk: String,
        arch: String = "arm64",
        overrides: [String: String] = [:]
    ) {
        let defaults: [String: String] = [
            "TARGET_NAME": target.name, "PROJECT_NAME": project.name, "CONFIGURATION": configuration,
            "SRCROOT": project.sourceRoot.path, "PROJECT_DIR": project.sourceRoot.path, "SOURCE_ROOT": project.sourceRoot.path,
            "PRODUCT_NAME": "$(TARGET_NAME)", "PLATFORM_NAME": sdk, "EFFECTIVE_PLATFORM_NAME": "-\(sdk)", "CURRENT_ARCH": arch,
            "AppIdentifierPrefix": "$(DEVELOPMENT_TEAM).", "TeamIdentifierPrefix": "$(DEVELOPMENT_TEAM).",
            // An entitlements file may name the Info.plist key; Xcode gives it the bundle ID.
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
        ]
        let build = ConditionalSetting.Build(sdk: sdk, arch: arch, configuration: configuration)
        let levels = [
            overrides, target.settings[configuration] ?? [:], target.baseSettings[configuration] ?? [:], project.settings[configuration] ?? [:],
            project.baseSettings[configuration] ?? [:], defaults,
        ].flatMap { Self.levels($0, for: build) }
        expander = BuildSettingExpander(policy: .lenient, levels: levels)
    }

    /// The expanded value of `name`, or nil when no level sets it.
    public func value(_ name: String) -> String? {
        // Lenient expansion says its problems (`cut`) and never throws.
        try? expander.value(of: name)
    }

    /// `text` with every build setting in it expanded.
    public func expand(_ text: String) -> String {
        (try? expander.expand(text)) ?? ""
    }

    /// A level's settings for `build`, as two levels: the conditional settings that hold (the one
    /// with the most conditions winning) above the plain ones, so that `$(inherited)` in
    /// `OTHER_LDFLAGS[sdk=iphoneos*]` reads the plain `OTHER_LDFLAGS` beside it, as Xcode reads it.
    /// Decided once per level (one pass), so that a lookup is a dictionary read.
    private static func levels(_ settings: [String: String], for build: ConditionalSetting.Build) -> [[String: String]] {
        var plain: [String: String] = [:]
        var chosen: [String: (conditions: Int, key: String, value: String)] = [:]
        for (key, value) in settings {
            guard let conditional = ConditionalSetting(key) else {
                plain[key] = value
                continue
            }
            guard conditional.matches(build) else { continue }
            // Two that hold with as many conditions: the greater key, so that the choice never
            // depends on a dictionary's order.
            if let current = chosen[conditional.name], (current.conditions, current.key) > (conditional.conditions.count, key) { continue }
            chosen[conditional.name] = (conditional.conditions.count, key, value)
        }
        return [chosen.mapValues { $0.value }, plain]
    }
}
