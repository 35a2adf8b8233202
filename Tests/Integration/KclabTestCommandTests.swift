import Foundation
import Testing
import WorldTestSupport

/// `kclab test -- COMMAND`: a lab of its own for one command, run as a test host on each device,
/// its -34018 refusals explained, its exit status kept, and nothing left behind.
@Suite(.serialized) struct KclabTestCommandTests {
    static let app = productsDirectory.appending(path: "keychainlab-app").path

    /// The temporary folders kclab test makes (the tests' own are kclab-test-UUID).
    static func leftovers() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        return Set(names.filter { $0.hasPrefix("kclab-testlab-") })
    }

    static func add(group: String, account: String) -> String {
        #"{"class":"genp","svce":"kclab-test","acct":"\#(account)","v_Data":"eA==","agrp":"\#(group)"}"#
    }

    @Test func aHeldGroupWorksOnTheIPhoneAndTheMac() throws {
        let before = try Self.leftovers()
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
        let after = try Self.leftovers()
        #expect(after == before, "the lab's temporary folder is removed: \(after.subtracting(before))")
    }

    @Test func aForeignGroupIsExplainedWithItsFix() throws {
        let result = try run(kclab, ["test", "--", Self.app, "add", Self.add(group: "OTHERTEAM1.foreign", account: "b")])
        #expect(result.stdout.contains("errSecMissingEntitlement"), "\(result.stdout)")
        #expect(result.stderr.contains("SecItemAdd → errSecMissingEntitlement (-34018)"), "\(result.stderr)")
        #expect(result.stderr.contains("may not write to access group 'OTHERTEAM1.foreign'"), "\(result.stderr)")
        #expect(result.stderr.contains("fix: list the group in the app's keychain-access-groups entitlement"), "\(result.stderr)")
    }

    @Test func theCommandsStatusIsKclabsAndTheLabGoesDown() throws {
        let before = try Self.leftovers()
        let result = try run(kclab, ["test", "--", "/bin/sh", "-c", "exit 7"])
        #expect(result.status == 7, "\(result.stderr)")
        #expect(try Self.leftovers() == before)
        let mistaken = try run(kclab, ["test", "--device", "watch", "--", "/bin/true"])
        #expect(mistaken.status == 1 && mistaken.stderr.contains("no device watch in this lab; it has iphone, mac"), "\(mistaken.stderr)")
        #expect(try Self.leftovers() == before, "a failed run cleans up too")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try run(kclab, ["test"]).status == 2)
        let both = try run(kclab, ["test", "--entitlements", "x.entitlements", "--access-group", "g", "--", "/bin/true"])
        #expect(both.status == 2 && both.stderr.contains("give --entitlements or --access-group, not both"), "\(both.stderr)")
    }
}
