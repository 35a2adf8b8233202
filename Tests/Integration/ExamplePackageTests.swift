import Foundation
import Testing
import WorldTestSupport

/// Examples/KeychainUser, a package whose keychain code uses `import Security`, built as a team
/// would build it (KeychainLab as a path dependency with its default traits off, so only the
/// app-side products compile) and tested with `kclab test`: its XCTest and Swift Testing tests
/// pass on a test host holding the shared group, and fail, explained, on one that does not.
@Suite(.serialized) struct ExamplePackageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Kept between runs, so that a second `make test` builds incrementally.
    static let scratch = repository.appending(path: ".build/examples/KeychainUser")

    /// Runs `command` in `folder` through the shell.
    static func shell(_ command: String, in folder: URL) throws -> ProgramResult {
        try run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path] + command.split(separator: " ").map(String.init)
        )
    }

    @Test func keychainUserPassesUnderKclabTestAndFailsWithoutItsGroup() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "kclab-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The layout docs/testing-your-package.md describes: a KeychainLab checkout named keychainlab beside the package.
        try FileManager.default.createSymbolicLink(at: folder.appending(path: "keychainlab"), withDestinationURL: Self.repository)
        let package = folder.appending(path: "KeychainUser")
        try FileManager.default.copyItem(at: Self.repository.appending(path: "Examples/KeychainUser"), to: package)

        let built = try Self.shell("swift build --build-tests --scratch-path \(Self.scratch.path)", in: package)
        try #require(built.status == 0, "\(built.stdout.suffix(3000))\(built.stderr.suffix(2000))")
        #expect(!Self.compiled("X509") && !Self.compiled("Crypto"), "the app side builds no certificate library")

        let bundle = Self.scratch.appending(path: "debug/KeychainUserPackageTests.xctest").path
        let passed = try Self.shell("\(kclab.path) test --access-group shared -- \(bundle)", in: package)
        #expect(passed.status == 0, "\(passed.stdout)\n\(passed.stderr)")
        #expect(passed.stdout.contains("Executed 1 test, with 0 failures"), "the XCTest case ran: \(passed.stdout)")
        #expect(passed.stdout.contains("Test run with 3 tests in 1 suite passed"), "the Swift Testing suite ran: \(passed.stdout)")
        #expect(passed.stderr.contains("may not write to access group 'OTHERTEAM1.foreign'"), "the expected -34018 is explained: \(passed.stderr)")

        let failed = try Self.shell("\(kclab.path) test --access-group other -- \(bundle)", in: package)
        #expect(failed.status != 0, "without TESTHOST01.shared the sharing test fails: \(failed.stdout)")
        #expect(failed.stdout.contains("theDefaultGroupIsTheSharedOne"), "\(failed.stdout)")
        #expect(failed.stderr.contains("does not belong to access group 'TESTHOST01.shared'"), "\(failed.stderr)")
    }

    /// Whether the example's build compiled `module` (it has object files).
    static func compiled(_ module: String) -> Bool {
        let folder = scratch.appending(path: "debug/\(module).build")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.contains { $0.hasSuffix(".o") }
    }
}
