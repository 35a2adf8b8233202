import AppIdentity
import KeychainItems
import KeychainTypes
import Testing

/// The fix `kclab test` prints for a refused access group names the entitlement that grants it:
/// `com.apple.security.application-groups` for an app group, `keychain-access-groups` otherwise,
/// and both for a team-prefixed group on a Mac, where an app group may be named `TEAMID.name`.
@Suite struct RefusalFixTests {
    typealias F = Fixtures

    static let appGroups = "list the app group in the app's com.apple.security.application-groups entitlement"
    static let keychainGroups = "list the group in the app's keychain-access-groups entitlement"
    static let either = [keychainGroups, "an app group goes in com.apple.security.application-groups instead"]

    @Test(arguments: [
        ("SecItemAdd: X may not write to access group 'group.com.example.foreign'", Platform.ios, [appGroups]),
        ("SecItemAdd: X may not write to access group 'group.com.example.foreign'", .macos, [appGroups]),
        ("SecItemCopyMatching: X does not belong to access group 'OTHERTEAM1.foreign'", .ios, [keychainGroups]),
        ("SecItemCopyMatching: X does not belong to access group 'OTHERTEAM1.foreign'", .macos, either),
        ("SecItemUpdate: X may not move items to access group 'com.example.plain'", .macos, [keychainGroups]),
        ("SecItemAdd: X has no writable access group", .ios, [keychainGroups]),
    ])
    func theFixNamesTheEntitlementThatGrantsTheGroup(_ reason: String, _ platform: Platform, _ saying: [String]) {
        let fix = SecItemError.Rule.accessGroup.fix(reason: reason, platform: platform)
        for text in saying { #expect(fix.contains(text), "\(fix)") }
        if saying == [Self.appGroups] { #expect(!fix.contains(Self.keychainGroups), "\(fix)") }
    }

    @Test func otherRulesKeepTheirFix() {
        let reason = "SecItemAdd: an item with the same primary key exists in 'group.com.example.AppSuite'"
        #expect(SecItemError.Rule.duplicate.fix(reason: reason, platform: .ios) == SecItemError.Rule.duplicate.fix)
    }

    /// The group is read back from the reasons the engine gives.
    @Test func theEnginesRefusalsNameTheGroup() async throws {
        let engine = F.engine()
        let added = await engine.add(F.password(["agrp": .string(F.suite)]), client: F.two)
        #expect(added.status == .missingEntitlement)
        let reason = try #require(added.reason)
        #expect(SecItemError.refusedGroup(in: reason) == F.suite)
        let rule = try #require(added.rule)
        #expect(rule.fix(reason: reason, platform: .ios).hasPrefix(Self.appGroups))
        let read = await engine.copyMatching(F.query(["agrp": .string(F.other)]), client: F.two)
        #expect(read.status == .missingEntitlement)
        #expect(SecItemError.refusedGroup(in: read.reason ?? "") == F.other)
        #expect(SecItemError.refusedGroup(in: "SecItemAdd: X has no writable access group") == nil)
    }
}
