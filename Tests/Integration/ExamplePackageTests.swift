import Foundation
import Testing
import WorldTestSupport

/// Examples/KeychainUser, a package whose keychain code uses `import Security`, built as a team
/// would build it (KeychainLab as a path dependency with its default traits off, so only the
/// app-side products compile) and tested with `kclab test`: its XCTest and Swift Testing tests
/// pass on a test host holding the shared group (its bundle's `Bundle.main` the host's), and fail,
/// explained, on one that does not.
@Suite(.serialized) struct ExamplePackageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The package where it is: `cd Examples/KeychainUser && swift build` works as its README says,
    /// through the link `Examples/keychainlab` to this repository, its `../keychainlab` path
    /// dependency. Its `.build` is kept between runs, so a second `make test` builds incrementally.
    static let package = repository.appending(path: "Examples/KeychainUser")

    /// Runs `command` in `folder` through the shell.
    static func shell(_ command: String, in folder: URL) throws -> ProgramResult {
        try run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path] + command.split(separator: " ").map(String.init)
        )
    }

    /// The link the example's path dependency goes through is this repository, as committed.
    static func prepare() throws {
        let link = repository.appending(path: "Examples/keychainlab")
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        #expect(target == "..", "Examples/keychainlab must link to the repository (..), not \(target)")
        let manifest = try String(contentsOf: package.appending(path: "Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(path: "../keychainlab", traits: [])"#))
    }

    @Test func keychainUserPassesUnderKclabTestAndFailsWithoutItsGroup() throws {
        try Self.prepare()
        let built = try Self.shell("swift build --build-tests", in: Self.package)
        try #require(built.status == 0, "\(built.stdout.suffix(3000))\(built.stderr.suffix(2000))")
        #expect(!Self.compiled("X509") && !Self.compiled("Crypto"), "the app side builds no certificate library")

        // As a team runs it: swift test, which reads the KeychainLab checkout beside the package.
        let passed = try Self.shell("\(kclab.path) test --access-group shared --read ../keychainlab -- swift test --skip-build", in: Self.package)
        #expect(passed.status == 0, "\(passed.stdout)\n\(passed.stderr)")
        #expect(passed.stdout.contains("Executed 1 test, with 0 failures"), "the XCTest case ran: \(passed.stdout)")
        #expect(passed.stdout.contains("Test run with 4 tests in 1 suite passed"), "the Swift Testing suite ran: \(passed.stdout)")
        // The bundle swift test ran read the test host's Info.plist (.build/debug/), which is gone again.
        #expect(passed.stdout.contains("Test theMainBundleIsTheTestHosts() passed"), "\(passed.stdout)")
        #expect(!FileManager.default.fileExists(atPath: Self.package.appending(path: ".build/debug/Info.plist").path))
        #expect(passed.stderr.contains("may not write to access group 'OTHERTEAM1.foreign'"), "the expected -34018 is explained: \(passed.stderr)")

        // The test bundle alone, on a host without the shared group: the sharing test fails, explained.
        let bundle = Self.package.appending(path: ".build/debug/KeychainUserPackageTests.xctest").path
        let failed = try Self.shell("\(kclab.path) test --access-group other -- \(bundle)", in: Self.package)
        #expect(failed.status != 0, "without TESTHOST01.shared the sharing test fails: \(failed.stdout)")
        #expect(failed.stdout.contains("Executed 1 test, with 0 failures"), "its XCTest case still passes: \(failed.stdout)")
        #expect(failed.stdout.contains("theDefaultGroupIsTheSharedOne"), "\(failed.stdout)")
        #expect(failed.stdout.contains("Test theMainBundleIsTheTestHosts() passed"), "the bundle run alone reads it too: \(failed.stdout)")
        #expect(failed.stderr.contains("does not belong to access group 'TESTHOST01.shared'"), "\(failed.stderr)")
    }

    /// Whether the example's build compiled `module` (it has object files).
    static func compiled(_ module: String) -> Bool {
        let folder = package.appending(path: ".build/debug/\(module).build")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.contains { $0.hasSuffix(".o") }
    }
}
