import AppIdentity
import Testing

/// Who may hold `*` (spec keychain.md §1.6): Apple's platform binaries on securityd's allow-list,
/// which a customer build of iOS leaves empty.
@Suite struct WildcardAccessGroupTests {
    @Test func keychainAccessOnAMacOnly() throws {
        #expect(WildcardAccessGroup.isEligible(team: .platform, signingIdentifier: "com.apple.keychainaccess", on: .macos))
        #expect(WildcardAccessGroup.isEligible(team: .platform, signingIdentifier: "com.apple.KeychainMigrator", on: .macos))
        #expect(!WildcardAccessGroup.isEligible(team: .platform, signingIdentifier: "com.apple.keychainaccess", on: .ios))
        #expect(!WildcardAccessGroup.isEligible(team: .platform, signingIdentifier: "com.apple.Notes", on: .macos))
        #expect(!WildcardAccessGroup.isEligible(team: try TeamID("ABCDE12345"), signingIdentifier: "com.apple.keychainaccess", on: .macos))
    }

    /// The list a device holds (spec keychain.md §1.1 steps 3–4).
    @Test func theTokenGroupByPlatform() throws {
        func held(_ platform: Platform, _ groups: [String], hasApplicationIdentifier: Bool = true) throws -> [String] {
            platform.heldAccessGroups(try groups.map { try AccessGroup($0) }, hasApplicationIdentifier: hasApplicationIdentifier).map(\.rawValue)
        }
        #expect(try held(.ios, ["com.apple.token", "A.x"]) == ["A.x", "com.apple.token"])
        #expect(try held(.ios, ["A.x"]) == ["A.x"])
        #expect(try held(.macos, ["A.x"]) == ["A.x", "com.apple.token"])
        #expect(try held(.macos, [], hasApplicationIdentifier: false) == ["com.apple.token"], "an unentitled Mac tool reads tokens")
        #expect(try held(.macos, [], hasApplicationIdentifier: true) == [], "securityd's entitlement failure stays empty")
    }
}
