import Foundation
import KeychainItems
import KeychainSync
import KeychainTypes
import Testing

/// What syncs, and in which view (the Octagon policy's keyViewMapping, in its order).
@Suite struct SyncPolicyTests {
    @Test(
        arguments: [
            ("ABCDE12345.com.example.shared", nil, SyncView.applications),
            ("com.apple.cfnetwork", nil, .passwords),
            ("com.apple.webkit.webauthn", nil, .passwords),
            ("com.apple.password-manager-recently-deleted", nil, .passwords),
            ("com.apple.safari.credit-cards", nil, .creditCards),
            ("group.com.example.suite", nil, .backstop),
            ("abcde12345.com.example.lower", nil, .backstop),
            ("ABCDE12345.com.example.shared", "Passwords", .applications),
            ("group.com.example.suite", "Passwords", .passwords),
            ("group.com.example.suite", "CreditCards", .creditCards),
        ] as [(String, String?, SyncView)]
    )
    func eachGroupHasTheViewThePolicyGives(_ group: String, _ hint: String?, _ view: SyncView) {
        #expect(SyncView.view(accessGroup: group, viewHint: hint) == view)
    }

    @Test func appleViewHintsWinBeforeTheApplicationsRule() {
        #expect(SyncView.view(accessGroup: "ABCDE12345.com.example.shared", viewHint: "Health") == nil)
        #expect(SyncView.view(accessGroup: "ABCDE12345.com.example.shared", viewHint: "ContinuityUnlock") == nil, "NotSynced")
        #expect(SyncView.view(accessGroup: "ABCDE12345.com.example.shared", viewHint: "WiFi") == .applications, "WiFi comes after")
        #expect(SyncView.view(accessGroup: "group.com.example.suite", viewHint: "WiFi") == nil)
    }

    @Test func onlySyncedItemsOfClassesThatMoveSync() {
        #expect(SyncPolicy.view(of: password("a", "s", protection: .whenUnlocked)) == .applications)
        #expect(SyncPolicy.view(of: password("a", "s", protection: .always)) == .applications)
        for bound in [
            Accessibility.whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
        ] {
            #expect(SyncPolicy.view(of: password("a", "s", protection: bound)) == nil, "\(bound) is device-bound")
        }
        var local = password("a", "s")
        local.attributes["sync"] = .integer(0)
        #expect(SyncPolicy.view(of: local) == nil)
    }

    @Test func signingOutDeletesApplesGroupsOnly() {
        #expect(SyncView.deletedOnSignOut.contains("com.apple.cfnetwork"))
        #expect(SyncView.deletedOnSignOut.contains("com.apple.webkit.webauthn-recently-deleted"))
        #expect(!SyncView.deletedOnSignOut.contains("ABCDE12345.com.example.shared"))
    }
}
