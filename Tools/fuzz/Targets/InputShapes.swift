import Foundation

/// Inputs of a chosen size in each shape that has made a parser super-linear somewhere (issue 24,
/// point 1): long arrays, many keys, long strings, deep nesting repeated, many patterns, many
/// components, many apps, many entries, many aliases, many forms. `make(n)` repeats the shape's
/// unit `n` times; the complexity check compares an input with one eight times as long.
public struct InputShape: Sendable {
    public let name: String
    public let make: @Sendable (Int) -> [UInt8]

    public init(_ name: String, _ make: @escaping @Sendable (Int) -> String) {
        self.name = name
        self.make = { Array(make($0).utf8) }
    }

    init(bytes name: String, _ make: @escaping @Sendable (Int) -> [UInt8]) {
        self.name = name
        self.make = make
    }

    static func repeated(_ unit: String, _ count: Int, separator: String = ",") -> String {
        Array(repeating: unit, count: count).joined(separator: separator)
    }

    /// JSON shapes every JSON reader is checked with.
    static func json(wrap: @escaping @Sendable (String) -> String = { $0 }) -> [InputShape] {
        [
            InputShape("long array") { wrap("[" + repeated("1", $0) + "]") },
            InputShape("many keys") { count in wrap("{" + (0..<count).map { "\"k\($0)\":1" }.joined(separator: ",") + "}") },
            InputShape("long string") { wrap("\"" + String(repeating: "é", count: $0) + "\"") },
            InputShape("nesting repeated") { wrap("[" + repeated(String(repeating: "[", count: 60) + String(repeating: "]", count: 60), $0) + "]") },
            InputShape("escapes") { wrap("\"" + String(repeating: "\\u00e9\\n", count: $0) + "\"") },
        ]
    }

    /// AASA files: the JSON shapes inside a service, and the schema's own.
    static let aasa: [InputShape] =
        json { "{\"webcredentials\": {\"apps\": [\($0)]}}" } + [
            InputShape("many apps") { "{\"webcredentials\": {\"apps\": [" + repeated("\"ABCDE12345.com.example.app\"", $0) + "]}}" },
            InputShape("many details") {
                "{\"applinks\": {\"apps\": [], \"details\": [" + repeated("{\"appIDs\": [\"ABCDE12345.a.b\"], \"paths\": [\"/a/*\"]}", $0) + "]}}"
            },
            InputShape("many path patterns") {
                "{\"applinks\": {\"details\": [{\"appID\": \"ABCDE12345.a\", \"paths\": [" + repeated("\"/a/*/b?c\"", $0) + "]}]}}"
            },
            InputShape("many components") {
                "{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.a\"], \"components\": ["
                    + repeated("{\"/\": \"/a/$(v)/*\", \"?\": {\"q\": \"?*\"}}", $0) + "]}], \"substitutionVariables\": {\"v\": [\"x\"]}}}"
            },
            InputShape("many variable uses") {
                "{\"applinks\": {\"details\": [{\"appIDs\": [\"ABCDE12345.a\"], \"components\": [{\"/\": \""
                    + String(repeating: "$(v)", count: $0) + "\"}]}], \"substitutionVariables\": {\"v\": [\"x\"]}}}"
            },
        ]

    static let assetLinks: [InputShape] =
        json { "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\", \"x\": [\($0)]}}]" } + [
            InputShape("many statements") {
                "["
                    + repeated(
                        "{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}",
                        $0
                    ) + "]"
            },
            InputShape("many relations") {
                "[{\"relation\": [" + repeated("\"delegate_permission/common.get_login_creds\"", $0)
                    + "], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]"
            },
            InputShape("many fingerprints") { count in
                let print = (0..<32).map { _ in "AB" }.joined(separator: ":")
                return
                    "[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"a.b\", \"sha256_cert_fingerprints\": ["
                    + repeated("\"\(print)\"", count) + "]}}]"
            },
            InputShape("many includes") { "[" + repeated("{\"include\": \"https://a.example/x.json\"}", $0) + "]" },
        ]

    /// A URL matched against hostile patterns (`*a*a…b` backtracks in a regular expression).
    static let patterns: [InputShape] = [
        InputShape("many stars") { "/" + repeated("*a", $0, separator: "") + "b" },
        InputShape("many variables") { "/" + repeated("$(v)", $0, separator: "") + "/*" },
    ]

    static let plist: [InputShape] = [
        InputShape("many entries") { plistDocument("<array>" + repeated("<string>ABCDE12345.group</string>", $0, separator: "") + "</array>") },
        InputShape("many keys") { count in
            plistDocument("<dict>" + (0..<count).map { "<key>k\($0)</key><true/>" }.joined() + "</dict>")
        },
        InputShape("long string") { plistDocument("<string>" + String(repeating: "é", count: $0) + "</string>") },
    ]

    static func plistDocument(_ value: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key>"# + value + "</dict></plist>"
    }

    static let yaml: [InputShape] = [
        InputShape("many teams") { count in
            "name: shapes\nteams:\n" + (0..<count).map { "  - {id: T\(String(format: "%09d", $0)), name: t}\n" }.joined()
        },
        InputShape("many aliases") { "name: &n shapes\nteams:\n" + repeated("  - {id: ABCDE12345, name: *n}\n", $0, separator: "") },
        InputShape("long list") { "name: shapes\nteams: [" + repeated("x", $0) + "]\n" },
    ]

    /// A small project: one app whose bundle ID refers to a project-level setting.
    static let pbxprojSeed = Array(
        """
        { objects = { P = {isa = PBXProject; buildConfigurationList = L; targets = (T, ); };
        L = {buildConfigurations = (C, ); }; C = {name = Debug; buildSettings = {BASE = "com.example"; }; };
        T = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = M; };
        M = {buildConfigurations = (D, ); }; D = {name = Debug; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "$(BASE).$(TARGET_NAME:rfc1034identifier)"; }; };
        }; rootObject = P; }
        """.utf8
    )

    /// project.pbxproj files: many objects, long lists, long strings, comments, and settings
    /// that refer to each other in a chain.
    static let pbxproj: [InputShape] = [
        InputShape("many objects") { count in
            "{ objects = {" + (0..<count).map { "O\($0) = {isa = PBXFileReference; path = a.swift; };" }.joined() + "}; }"
        },
        InputShape("long list") { "{ a = (" + repeated("x", $0) + "); }" },
        InputShape("long quoted string") { "{ a = \"" + String(repeating: "\\\"é", count: $0) + "\"; }" },
        InputShape("many comments") { "{" + repeated("/* c */ // d\n", $0, separator: "") + "}" },
        InputShape("nesting repeated") { "{ a = (" + repeated(String(repeating: "(", count: 60) + String(repeating: ")", count: 60), $0) + "); }" },
        InputShape("settings chain") { count in
            let settings = (1..<count).map { "S\($0) = \"$(S\($0 - 1))x\";" }.joined()
            return "{ objects = { P = {isa = PBXProject; buildConfigurationList = L; targets = (T, ); }; L = {buildConfigurations = (C, ); };"
                + " C = {name = Debug; buildSettings = {S0 = x; \(settings) }; };"
                + " T = {isa = PBXNativeTarget; name = App; productType = \"com.apple.product-type.application\"; buildConfigurationList = M; };"
                + " M = {buildConfigurations = (D, ); }; D = {name = Debug; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = \"$(S\(count - 1))\"; }; }; };"
                + " rootObject = P; }"
        },
    ]

    static let html: [InputShape] = [
        InputShape("many forms") { repeated("<form id=\"f\" action=\"/x\"><input name=\"a\" value=\"b\"></form>", $0, separator: "") },
        InputShape("many inputs") { "<form>" + repeated("<input name=\"a\" type=\"text\" value=\"b\">", $0, separator: "") + "</form>" },
        InputShape("unclosed forms") { repeated("<form <input ", $0, separator: "") },
    ]

    static let formBody: [InputShape] = [
        InputShape("many fields") { count in (0..<count).map { "f\($0)=v%20\($0)" }.joined(separator: "&") },
        InputShape("long value") { "a=" + String(repeating: "%41", count: $0) },
    ]

    static let cbor: [InputShape] = [
        InputShape(bytes: "many map keys") { count in
            let pairs = min(count, 4000)
            return [0xB9, UInt8(pairs >> 8), UInt8(pairs & 0xFF)] + (0..<pairs).flatMap { [0x19, UInt8($0 >> 8), UInt8($0 & 0xFF), 0xF5] }
        },
        InputShape(bytes: "long byte string") { count in
            [0x5A] + withUnsafeBytes(of: UInt32(count).bigEndian, Array.init) + [UInt8](repeating: 7, count: count)
        },
    ]

    static let deviceRequest: [InputShape] = [
        InputShape("many arguments") { "{\"op\": \"run\", \"app\": \"a\", \"arguments\": [" + repeated("\"x\"", $0) + "]}" },
        InputShape("many query keys") { count in
            "{\"op\": \"add\", \"query\": {" + (0..<count).map { "\"k\($0)\": {\"string\": \"v\"}" }.joined(separator: ",") + "}}"
        },
    ]
}
