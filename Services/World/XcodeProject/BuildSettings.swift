import Foundation

/// A target's build settings in one configuration for one SDK, expanded as Xcode expands them:
/// `$(NAME)` and `${NAME}`, `$(inherited)` (the level beneath: the target's settings, its
/// `.xcconfig`, the project's settings, the project's `.xcconfig`, then Xcode's defaults), conditional settings (`NAME[sdk=macosx*]`), the modifiers `:lower`,
/// `:upper`, `:rfc1034identifier` and `:c99extidentifier`, and `$(AppIdentifierPrefix)` and
/// `$(TeamIdentifierPrefix)` from the development team. A name that resolves to nothing is
/// recorded (``unresolved``), never guessed; each setting is expanded once (memoized), a cycle
/// and a chain deeper than ``maximumDepth`` are cut, an expansion longer than ``maximumLength`` is cut short, and all expansions together
/// write at most ``budget`` characters, so a hostile project (settings that double at each
/// level) costs bounded time.
public final class BuildSettings {
    /// Longer than any real setting.
    public static let maximumLength = 65_536
    /// More than every setting of a real target expanded together.
    public static let budget = 4 << 20
    /// Deeper than settings that refer to settings ever go in a real project.
    public static let maximumDepth = 64

    private var written = 0

    private let levels: [[String: String]]
    private var memo: [Key: String] = [:]
    private var expanding: Set<Key> = []
    /// The names that resolved to nothing, in the order met.
    public private(set) var unresolved: [String] = []
    /// Expansions cut short (a cycle, a chain too deep, too long), one sentence each.
    public private(set) var cut: [String] = []

    private struct Key: Hashable {
        let name: String
        let level: Int
    }

    /// The settings of `target` in `configuration` built for `sdk` (`iphoneos`, `macosx`), with
    /// `overrides` above them (as `xcodebuild NAME=VALUE` gives).
    public init(project: XcodeProject, target: XcodeProject.Target, configuration: String, sdk: String, overrides: [String: String] = [:]) {
        let defaults: [String: String] = [
            "TARGET_NAME": target.name, "PROJECT_NAME": project.name, "CONFIGURATION": configuration,
            "SRCROOT": project.sourceRoot.path, "PROJECT_DIR": project.sourceRoot.path, "SOURCE_ROOT": project.sourceRoot.path,
            "PRODUCT_NAME": "$(TARGET_NAME)", "PLATFORM_NAME": sdk, "EFFECTIVE_PLATFORM_NAME": "-\(sdk)",
            "AppIdentifierPrefix": "$(DEVELOPMENT_TEAM).", "TeamIdentifierPrefix": "$(DEVELOPMENT_TEAM).",
            // An entitlements file may name the Info.plist key; Xcode gives it the bundle ID.
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
        ]
        levels = [
            overrides, target.settings[configuration] ?? [:], target.baseSettings[configuration] ?? [:], project.settings[configuration] ?? [:],
            project.baseSettings[configuration] ?? [:], defaults,
        ].map { Self.settings($0, for: sdk) }
    }

    /// The expanded value of `name`, or nil when no level sets it.
    public func value(_ name: String) -> String? {
        resolve(name, from: 0)
    }

    /// `text` with every build setting in it expanded.
    public func expand(_ text: String) -> String {
        expand(text, level: 0)
    }

    private func resolve(_ name: String, from start: Int) -> String? {
        for level in start..<levels.count {
            guard let raw = levels[level][name] else { continue }
            let key = Key(name: name, level: level)
            if let known = memo[key] { return known }
            guard expanding.count < Self.maximumDepth else {
                note("$(\(name)) refers to settings more than \(Self.maximumDepth) deep: cut there")
                return ""
            }
            guard expanding.insert(key).inserted else {
                note("$(\(name)) refers to itself through other settings: expanded to nothing")
                return ""
            }
            let value = expand(raw, level: level, inheriting: name)
            expanding.remove(key)
            memo[key] = value
            return value
        }
        return nil
    }

    /// A level's settings for `sdk`: `NAME[sdk=PATTERN]` over `NAME` when the pattern matches,
    /// decided once per level (one pass), so that a lookup is one dictionary read.
    private static func settings(_ settings: [String: String], for sdk: String) -> [String: String] {
        var chosen: [String: String] = [:]
        var conditional: [(String, String)] = []
        for (key, value) in settings {
            guard key.hasSuffix("]"), let open = key.firstRange(of: "[sdk=") else {
                chosen[key] = value
                continue
            }
            let pattern = key[open.upperBound...].dropLast()
            if pattern.hasSuffix("*") ? sdk.hasPrefix(pattern.dropLast()) : sdk == pattern {
                conditional.append((String(key[..<open.lowerBound]), value))
            }
        }
        for (name, value) in conditional { chosen[name] = value }
        return chosen
    }

    private func expand(_ text: String, level: Int, inheriting name: String? = nil) -> String {
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let open = rest.index(after: dollar)
            guard open < rest.endIndex, rest[open] == "(" || rest[open] == "{",
                let close = rest[open...].firstIndex(of: rest[open] == "(" ? ")" : "}")
            else {
                result += "$"
                rest = rest[open...]
                continue
            }
            let reference = rest[rest.index(after: open)..<close]
            let value = substitute(reference, level: level, inheriting: name)
            written += value.utf8.count
            guard written <= Self.budget else {
                note("the project's settings expand to more than \(Self.budget) characters: \(name.map { "$(\($0))" } ?? "a setting") was cut there")
                return result
            }
            result += value
            rest = rest[rest.index(after: close)...]
            if result.utf8.count > Self.maximumLength {
                note("\(name.map { "$(\($0))" } ?? "a value") expands to more than \(Self.maximumLength) characters: cut there")
                return String(result.utf8.prefix(Self.maximumLength)) ?? ""
            }
        }
        return result + rest
    }

    private func substitute(_ reference: Substring, level: Int, inheriting name: String?) -> String {
        let parts = reference.split(separator: ":", omittingEmptySubsequences: false)
        let variable = String(parts[0])
        let value: String?
        // `$(inherited)`, and a setting that names itself (`DEVELOPMENT_TEAM = $(DEVELOPMENT_TEAM)`),
        // read the level beneath, as Xcode reads them.
        if variable == "inherited" || variable == name {
            value = name.flatMap { resolve($0, from: level + 1) } ?? ""
        } else {
            value = resolve(variable, from: 0)
        }
        guard var text = value else {
            record(variable)
            return ""
        }
        for modifier in parts.dropFirst() {
            switch modifier {
            case "lower": text = text.lowercased()
            case "upper": text = text.uppercased()
            case "rfc1034identifier": text = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
            case "c99extidentifier": text = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
            default: note("$(\(variable):\(modifier)) uses a modifier Xcode does not have: ignored")
            }
        }
        return text
    }

    private func record(_ name: String) {
        if !unresolved.contains(name), unresolved.count < 64 { unresolved.append(name) }
    }

    private func note(_ sentence: String) {
        if !cut.contains(sentence), cut.count < 64 { cut.append(sentence) }
    }
}
