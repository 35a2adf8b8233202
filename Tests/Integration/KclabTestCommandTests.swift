import Foundation
import Testing
import WorldTestSupport

/// `kclab test -- COMMAND`: a lab of its own for one command, run as a test host on each device,
/// every call of it read and each refusal explained, its exit status kept, and nothing left behind.
@Suite(.serialized) struct KclabTestCommandTests {
    static let app = productsDirectory.appending(path: "keychainlab-app").path

    /// The lab folder a run of kclab test named in its progress ("building the world … in FOLDER/world").
    static func labFolder(_ result: ProgramResult) -> String? {
        guard let line = result.stderr.split(separator: "\n").first(where: { $0.contains("building the world") }),
            let range = line.range(of: " in ", options: .backwards)
        else { return nil }
        return String(line[range.upperBound...].dropLast("/world".count))
    }

    /// Whether the run made its lab in a temporary folder and removed it.
    static func cleanedUp(_ result: ProgramResult) -> Bool {
        guard let folder = labFolder(result), folder.contains("/kclab-testlab-") else { return false }
        return !FileManager.default.fileExists(atPath: folder)
    }

    static func add(group: String, account: String) -> String {
        #"{"class":"genp","svce":"kclab-test","acct":"\#(account)","v_Data":"eA==","agrp":"\#(group)"}"#
    }

    @Test func aHeldGroupWorksOnTheIPhoneAndTheMac() throws {
        let result = try run(
            kclab,
            [
                "test", "--access-group", "shared", "--device", "iphone", "--device", "mac", "--", Self.app, "add",
                Self.add(group: "TESTHOST01.shared", account: "a"),
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: #""status":0"#).count == 3, "one success on each device: \(result.stdout)")
        #expect(result.stderr.contains("kclab test: iphone: 1 keychain calls, none refused"), "\(result.stderr)")
        #expect(result.stderr.contains("kclab test: mac: 1 keychain calls, none refused"), "\(result.stderr)")
        #expect(Self.cleanedUp(result), "the lab's temporary folder is removed: \(result.stderr)")
    }

    @Test func aForeignGroupIsExplainedWithItsFix() throws {
        let result = try run(kclab, ["test", "--", Self.app, "add", Self.add(group: "OTHERTEAM1.foreign", account: "b")])
        #expect(result.stdout.contains("errSecMissingEntitlement"), "\(result.stdout)")
        #expect(result.stderr.contains("SecItemAdd → errSecMissingEntitlement (-34018)"), "\(result.stderr)")
        #expect(result.stderr.contains("may not write to access group 'OTHERTEAM1.foreign'"), "\(result.stderr)")
        #expect(result.stderr.contains("fix: list the group in the app's keychain-access-groups entitlement"), "\(result.stderr)")
    }

    /// A run of more calls than keychaind keeps in memory (4096 to 8192): read while it runs, a
    /// page at a time, so the refusal of its first call is reported with every other status.
    @Test func everyCallOfALongRunIsReadAndEachStatusExplained() throws {
        let script = #""$0" add "$1"; "$0" stress 2 1100"#
        // The shell's own folder is /bin: the app's, beside kclab, is named to be read.
        let result = try run(
            kclab,
            [
                "test", "--read", productsDirectory.path, "--", "/bin/sh", "-c", script, Self.app,
                Self.add(group: "OTHERTEAM1.foreign", account: "first"),
            ]
        )
        #expect(result.status == 0, "\(result.stdout.suffix(2000))\(result.stderr)")
        #expect(result.stdout.contains("stress: 2200 rounds, 0 failures"), "\(result.stdout.suffix(2000))")
        // Each round adds, reads, deletes and reads again (errSecItemNotFound): 8800 calls and the first add.
        #expect(result.stderr.contains("kclab test: iphone: 2201 of 8801 keychain calls refused (exit status 0):"), "\(result.stderr)")
        #expect(result.stderr.contains("  SecItemAdd → errSecMissingEntitlement (-34018)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("  SecItemCopyMatching → errSecItemNotFound (-25300), 2200 times"), "\(result.stderr)")
        #expect(result.stderr.contains("why: no-match: SecItemCopyMatching: no genp item matches in the caller's groups"), "\(result.stderr)")
        #expect(!result.stderr.contains("unread:") && !result.stderr.contains("none refused"), "\(result.stderr)")
        #expect(Self.cleanedUp(result), "\(result.stderr)")
    }

    /// An app group is granted by com.apple.security.application-groups, which the fix names.
    @Test func aRefusedAppGroupsFixIsTheAppGroupsEntitlement() throws {
        let result = try run(kclab, ["test", "--", Self.app, "add", Self.add(group: "group.com.example.foreign", account: "c")])
        #expect(result.stderr.contains("may not write to access group 'group.com.example.foreign'"), "\(result.stderr)")
        #expect(
            result.stderr.contains("fix: list the app group in the app's com.apple.security.application-groups entitlement"),
            "\(result.stderr)"
        )
    }

    @Test func theCommandsStatusIsKclabsAndTheLabGoesDown() throws {
        let result = try run(kclab, ["test", "--", "/bin/sh", "-c", "exit 7"])
        #expect(result.status == 7, "\(result.stderr)")
        #expect(Self.cleanedUp(result), "\(result.stderr)")
        let mistaken = try run(kclab, ["test", "--device", "watch", "--", "/bin/true"])
        #expect(mistaken.status == 1 && mistaken.stderr.contains("no device watch in this lab; it has iphone, mac"), "\(mistaken.stderr)")
        #expect(Self.cleanedUp(mistaken), "a failed run cleans up too: \(mistaken.stderr)")
    }

    /// A failed run keeps the lab's logs where CI can upload them (--keep-logs, or kclab-logs
    /// under CI=true); a run that passes keeps none. The report says which sandbox the apps got.
    @Test func aFailedRunKeepsTheLabsLogs() async throws {
        try await withTemporaryDirectory { folder in
            let logs = folder.appending(path: "logs")
            let failed = try run(kclab, ["test", "--keep-logs", logs.path, "--", "/bin/sh", "-c", "exit 3"])
            #expect(failed.status == 3, "\(failed.stderr)")
            #expect(failed.stderr.contains("kclab test: the run failed; the lab's logs are in \(logs.path)"), "\(failed.stderr)")
            let kept = Set((try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? [])
            #expect(kept.isSuperset(of: ["keychaind.log", "device-iphone.log"]), "\(kept.sorted())")
            #expect(
                failed.stderr.contains("kclab test: sandbox: Landlock ABI ") || failed.stderr.contains("kclab test: sandbox: Landlock not available"),
                "\(failed.stderr)"
            )

            let passedLogs = folder.appending(path: "passed")
            let passed = try run(kclab, ["test", "--keep-logs", passedLogs.path, "--", "/bin/true"])
            #expect(passed.status == 0 && !FileManager.default.fileExists(atPath: passedLogs.path), "\(passed.stderr)")
        }
    }

    /// A test bundle is run twice, XCTest then Swift Testing; a second run that finds no test
    /// (exit status 69, as Swift Testing ends then) is no failure, as with `swift test`, but the
    /// same status from the first run is kept.
    @Test func aBundleWithoutSwiftTestingTestsPasses() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = folder.appending(path: "Fake.xctest")
            let script = """
                #!/bin/sh
                case "$*" in *swift-testing*) echo 'no Swift Testing tests'; exit 69;; esac
                echo "xctest ran"; exit ${FIRST:-0}

                """
            try Data(script.utf8).write(to: bundle)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path)
            let passing = try run(kclab, ["test", "--", bundle.path])
            #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
            #expect(passing.stdout.contains("xctest ran") && passing.stdout.contains("no Swift Testing tests"), "\(passing.stdout)")
            #expect(passing.stderr.contains("the bundle has no Swift Testing tests"), "\(passing.stderr)")

            let failing = folder.appending(path: "Failing.xctest")
            try Data(script.replacingOccurrences(of: "${FIRST:-0}", with: "69").utf8).write(to: failing)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
            #expect(try run(kclab, ["test", "--", failing.path]).status == 69, "the XCTest run's own 69 is kept")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try run(kclab, ["test"]).status == 2)
        let both = try run(kclab, ["test", "--entitlements", "x.entitlements", "--access-group", "g", "--", "/bin/true"])
        #expect(both.status == 2 && both.stderr.contains("give --entitlements or --access-group, not both"), "\(both.stderr)")
    }
}
