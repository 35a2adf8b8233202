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

    @Test func theSecurityModulesConstantsAreTheTables() throws {
        let expected = Self.rendered()
        if ProcessInfo.processInfo.environment["KCLAB_REGENERATE"] == "1" {
            try Data(expected.utf8).write(to: Self.file)
        }
        let written = try String(contentsOf: Self.file, encoding: .utf8)
        #expect(written == expected, "SecBaseErrors.swift is stale: run make generate")
    }
}
