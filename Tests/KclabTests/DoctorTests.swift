import Foundation
import Testing
import WorldTestSupport

/// `kclab doctor`: each thing the lab needs, found or named with its fix; exit 1 only when
/// something needed is missing.
@Suite struct DoctorTests {
    /// kclab doctor with `variables` set in its environment.
    static func doctor(_ variables: [String] = [], _ arguments: [String] = []) throws -> ProgramResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), variables + [kclab.path, "doctor"] + arguments)
    }

    @Test func thisMachineHasWhatTheLabNeeds() throws {
        let result = try Self.doctor()
        #expect(result.status == 0, "\(result.stdout)")
        for line in ["ok       kclab's programs: all 10 in", "ok       nginx: /usr/sbin/nginx", "ok       openssl: ", "temporary folder: "] {
            #expect(result.stdout.contains(line), "\(line) in \(result.stdout)")
        }
        #expect(result.stdout.contains(" Landlock: "), "\(result.stdout)")
    }

    @Test func missingProgramsAreNamedWithTheirFix() throws {
        let empty = FileManager.default.temporaryDirectory.appending(path: "kclab-doctor-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try Self.doctor(["KCLAB_BIN_DIR=\(empty.path)"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("missing  kclab's programs: not in \(empty.path): keychaind, cloudd, associationd"), "\(result.stdout)")
        #expect(result.stdout.contains("fix: build them beside kclab"), "\(result.stdout)")
    }

    @Test func aToolOffThePathIsMissingAndSwiftOnlyWarned() throws {
        let result = try Self.doctor(["PATH=/nonexistent"], ["--json"])
        #expect(result.status == 1)
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        let bySubject = Dictionary(findings.map { ($0["subject"] ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(bySubject["openssl"]?["level"] == "missing")
        #expect(bySubject["openssl"]?["fix"] == "apt-get install openssl")
        #expect(bySubject["swift"]?["level"] == "warning", "the lab runs without Swift on PATH")
        #expect(bySubject["nginx"]?["level"] == "ok", "nginx is found by its path, not PATH")
    }
}
