import Foundation
import Testing
import WorldTestSupport

/// A test bundle run by `kclab test` finds its host's Info.plist beside it, as Foundation reads
/// `Bundle.main` on Linux, so its `bundleIdentifier` is the host's, as under an Xcode test host;
/// the file is there for the run only, and a package's own is left alone. The report starts with
/// the test host and its devices.
extension KclabTestCommandTests {
    static let hostIdentifier = "<key>CFBundleIdentifier</key>\n\t<string>com.example.TestHost</string>"

    /// An XML property list of one dictionary holding `entries`.
    static func propertyList(_ entries: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>\(entries)</dict></plist>

        """
    }

    /// A stand-in for a test bundle at `url` that prints the Info.plist beside it, where
    /// Foundation looks for the main bundle's.
    static func writeBundle(at url: URL) throws {
        let script = """
            #!/bin/sh
            cat "$(dirname "$0")/Info.plist" || echo "no Info.plist beside the bundle"

            """
        try Data(script.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    @Test func aTestBundleReadsTheHostsInfoPlistForTheRunOnly() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appending(path: "HostedPackageTests.xctest")
            try Self.writeBundle(at: bundle)
            let result = try run(kclab, ["test", "--", bundle.path])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(Self.hostIdentifier), "the host's bundle ID: \(result.stdout)")
            #expect(result.stdout.contains("<key>CFBundleName</key>\n\t<string>TestHost</string>"), "\(result.stdout)")
            #expect(!result.stdout.contains("no Info.plist"), "both runs, XCTest's and Swift Testing's, find it: \(result.stdout)")
            #expect(result.stderr.contains("Bundle.main of the test bundle: \(folder.resolvingSymlinksInPath().path)/Info.plist"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "Info.plist").path), "removed when the run ends")
        }
    }

    @Test func aPackagesOwnInfoPlistIsLeftAloneAndALeftOverOneReplaced() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appending(path: "HostedPackageTests.xctest")
            try Self.writeBundle(at: bundle)
            let file = folder.appending(path: "Info.plist")
            let theirs = Data(Self.propertyList("<key>CFBundleIdentifier</key><string>com.example.Theirs</string>").utf8)
            try theirs.write(to: file)
            let kept = try run(kclab, ["test", "--", bundle.path])
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stdout.contains("com.example.Theirs") && !kept.stdout.contains(Self.hostIdentifier), "\(kept.stdout)")
            #expect(kept.stderr.contains("Info.plist is not kclab's: it is left as it is"), "\(kept.stderr)")
            #expect(try Data(contentsOf: file) == theirs, "the package's file is untouched")

            // One an interrupted run left (it bears kclab's mark) is kclab's to replace and remove.
            let stale = Self.propertyList(
                "<key>CFBundleIdentifier</key><string>com.example.Theirs</string><key>KeychainLabTestRun</key><string>x</string>"
            )
            try Data(stale.utf8).write(to: file)
            let replaced = try run(kclab, ["test", "--", bundle.path])
            #expect(replaced.stdout.contains(Self.hostIdentifier) && !replaced.stdout.contains("com.example.Theirs"), "\(replaced.stdout)")
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(replaced.stderr)")
        }
    }

    /// `swift test` runs its bundle from `.build/debug`, a link to the triple's folder: the file
    /// goes there. A `swift` of the test's own stands in for SwiftPM's.
    @Test func theBundleSwiftTestRunsReadsTheHostsInfoPlist() async throws {
        try await withTemporaryDirectory { folder in
            let package = folder.appending(path: "Package")
            let built = package.appending(path: ".build/x86_64-unknown-linux-gnu/debug")
            try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: package.appending(path: ".build/debug").path,
                withDestinationPath: "x86_64-unknown-linux-gnu/debug"
            )
            try Self.writeBundle(at: built.appending(path: "PackagePackageTests.xctest"))
            let tools = folder.appending(path: "tools")
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            let swift = tools.appending(path: "swift")
            try Data("#!/bin/sh\n[ \"$1\" = test ] && exec .build/debug/PackagePackageTests.xctest\nexit 64\n".utf8).write(to: swift)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)

            let path = "\(tools.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
            let result = try run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", package.path, "/usr/bin/env", "PATH=\(path)", kclab.path]
                    + ["test", "--", "swift", "test", "--skip-build"]
            )
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(Self.hostIdentifier), "\(result.stdout)")
            let placed = built.resolvingSymlinksInPath().appending(path: "Info.plist")
            #expect(result.stderr.contains("Bundle.main of the test bundle: \(placed.path)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: placed.path), "removed when the run ends")
        }
    }

    /// The report's first lines: the test host, and its devices' systems and passcodes.
    @Test func theReportStartsWithTheTestHostAndItsDevices() throws {
        let result = try run(kclab, ["test", "--access-group", "shared", "--", "/bin/true"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").prefix(4).map(String.init)
        let host = "kclab test: the test host com.example.TestHost: team TESTHOST01, development profile (get-task-allow), "
        #expect(lines.first == host + "keychain-access-groups TESTHOST01.shared", "\(result.stderr)")
        #expect(lines.count == 4 && lines[1].hasPrefix("kclab test: Bundle.main is the program's own"), "\(lines)")
        #expect(lines.count == 4 && lines[2].hasPrefix("kclab test: iphone: iOS 17.4, no passcode (never locked"), "\(lines)")
        #expect(lines.count == 4 && lines[2].hasSuffix("; runs the command"), "\(lines)")
        let mac = "kclab test: mac: macOS 14.5 running the iOS build (the data-protection keychain only), no passcode"
        #expect(lines.count == 4 && lines[3].hasPrefix(mac), "\(lines)")
        #expect(lines.count == 4 && lines[3].hasSuffix("; not used (add --device mac)"), "\(lines)")
    }
}
