import Foundation
import KeychainTypes
import Testing

/// Devices/KeychainLabSecurity/SecBaseErrors.swift is generated from ``OSStatusTable``, the one
/// table of statuses: this test fails when the file is stale, and `make generate` (which runs it
/// with KCLAB_REGENERATE=1) writes it again.
@Suite struct GeneratedConstantsTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Devices/KeychainLabSecurity/SecBaseErrors.swift")

    /// The file's text: each status's message as its doc comment, then its constant.
    static func rendered() -> String {
        var lines = [
            "// Generated from OSStatusTable (Services/Keychain/KeychainTypes/OSStatusTable.swift) by `make generate`:",
            "// edit the table, not this file. The OSStatus values of the Security framework, with",
            "// SecBase.h's comment on each.",
            "",
        ]
        for entry in OSStatusTable.entries {
            if !entry.message.isEmpty { lines.append("/// \(entry.message)") }
            lines.append("public let \(entry.name): OSStatus = \(entry.code)")
        }
        lines += [
            "",
            "@available(*, deprecated, renamed: \"errSecDiskFull\")",
            "public let errSecDskFull: OSStatus = errSecDiskFull",
            "/// `noErr`, as Carbon spelled success.",
            "public let noErr: OSStatus = errSecSuccess",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `expected` to `file` under `make generate` (KCLAB_REGENERATE=1); else expects the
    /// file to hold it.
    static func expectGenerated(_ expected: String, in file: URL) throws {
        if ProcessInfo.processInfo.environment["KCLAB_REGENERATE"] == "1" {
            try Data(expected.utf8).write(to: file)
        }
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == expected, "\(file.lastPathComponent) is stale: run make generate")
    }

    @Test func theSecurityModulesConstantsAreTheTables() throws {
        try Self.expectGenerated(Self.rendered(), in: Self.file)
    }

    static let constantsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Devices/KeychainLabSecurity/SecConstants.swift")

    /// SecConstants.swift: each constant with its value as its doc comment.
    static func renderedConstants() -> String {
        var lines = [
            "public import Foundation",
            "",
            "// Generated from SecConstantTable (Services/Keychain/KeychainTypes/SecConstantTable.swift) by",
            "// `make generate`: edit the table, not this file. The `kSec…` constants with the string values",
            "// Apple's SecItemConstants.c gives them.",
            "",
        ]
        for entry in SecConstantTable.entries {
            lines.append("/// `\(entry.value)`.")
            lines.append("nonisolated(unsafe) public let \(entry.name): CFString = \"\(entry.value)\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theSecurityModulesKeysAndValuesAreTheTables() throws {
        try Self.expectGenerated(Self.renderedConstants(), in: Self.constantsFile)
    }
}
