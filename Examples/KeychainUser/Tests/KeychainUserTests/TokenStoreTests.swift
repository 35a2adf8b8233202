import Foundation
import KeychainUser
import Security
import Testing

/// Run with `kclab test --access-group shared -- …` (docs/testing-your-package.md): the test host
/// is team TESTHOST01's com.example.TestHost, holding TESTHOST01.shared first, then its own group.
@Suite(.serialized) struct TokenStoreTests {
    static let shared = "TESTHOST01.shared"
    let store = TokenStore(service: "com.example.KeychainUser.tests")

    @Test func savesReadsAndDeletes() throws {
        try store.save("s3cret", account: "alice")
        #expect(try store.read(account: "alice") == "s3cret")
        try store.save("changed", account: "alice")
        #expect(try store.read(account: "alice") == "changed", "a second save replaces the first")
        try store.delete(account: "alice")
        #expect(try store.read(account: "alice") == nil)
    }

    /// The first group of keychain-access-groups is where an add without a group lands, so code
    /// naming the shared group finds it: how two apps of a team share a token.
    @Test func theDefaultGroupIsTheSharedOne() throws {
        try store.save("team-token", account: "bob")
        let sharing = TokenStore(service: store.service, accessGroup: Self.shared)
        #expect(try sharing.read(account: "bob") == "team-token")
        try sharing.delete(account: "bob")
    }

    /// As in an Xcode test host, the bundle's main bundle is the host's: code that names its
    /// service after `Bundle.main.bundleIdentifier` (KeychainAccess's default) finds one.
    @Test func theMainBundleIsTheTestHosts() {
        #expect(Bundle.main.bundleIdentifier == "com.example.TestHost")
        #expect(Bundle.main.object(forInfoDictionaryKey: "CFBundleName") as? String == "TestHost")
    }

    /// A group the app does not hold: errSecMissingEntitlement, as on a device since iOS 13.
    @Test func aForeignGroupIsMissingEntitlement() {
        let foreign = TokenStore(service: store.service, accessGroup: "OTHERTEAM1.foreign")
        #expect(throws: TokenStore.Failure(status: errSecMissingEntitlement)) {
            try foreign.save("x", account: "carol")
        }
    }
}
