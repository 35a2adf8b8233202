import AppIdentity
import Foundation
import KeychainTypes
import Synchronization
import Testing
import UserAnswers
import WebCredentialAPI
import WebCredentials

/// SecAddSharedWebCredential, step by step (spec associations.md d.3), per release.
@Suite struct BrokerAddTests {
    typealias F = BrokerFixture

    @Test func aNewAccountOnIOS13AndLaterIsSavedAfterTheAddPrompt() async throws {
        let fixture = F()
        let asked = await fixture.add("example.com", "alice", "s3cret-Pa55", app: F.app("17.4"))
        let prompt = try #require(asked.prompt)
        #expect(prompt.kind == .add)
        #expect(prompt.title == "Would you like to save this password in your iCloud Keychain to use with apps and websites on all your devices?")
        #expect(prompt.approveButton == "Save Password" && prompt.cancelButton == "Not Now")
        #expect(fixture.stored.isEmpty)

        let done = await fixture.add("example.com", "alice", "s3cret-Pa55", app: F.app("17.4"), answer: .approve)
        #expect(done.status == 0 && done.error == nil && done.prompt == nil)
        let item = try #require(fixture.stored.first)
        #expect(item["agrp"] == .string("com.apple.cfnetwork"))
        #expect(item["atyp"] == .string("form"))
        #expect(item["ptcl"] == .string("htps"))
        #expect(item["srvr"] == .string("example.com"))
        #expect(item["acct"] == .string("alice"))
        #expect(item["sync"] == .bool(true))
        #expect(item["icmt"] == .string("default"))
        #expect(item["labl"] == .string("example.com (alice)"))
        #expect(item["crtr"] == .integer(0x7377_6361))
        #expect(item["v_Data"] == .data(Data("s3cret-Pa55".utf8)))
        #expect(item["port"] == nil)
    }

    @Test func aNewAccountBeforeIOS13IsSavedWithoutAPrompt() async {
        let fixture = F()
        let done = await fixture.add("example.com", "alice", "pw", app: F.app("12.5"))
        #expect(done.prompt == nil && done.status == 0)
        #expect(fixture.stored.count == 1)
    }

    @Test func declineReportsSuccessSavesNothingAndRecordsTheDenial() async {
        let fixture = F()
        let done = await fixture.add("example.com", "alice", "pw", app: F.app("17.4"), answer: .decline)
        #expect(done.status == 0 && done.error == nil)
        #expect(fixture.stored.isEmpty)
        #expect(fixture.users.records.withLock { $0["\(F.appID)@example.com"] } == false)
    }

    @Test func anUnchangedPasswordIsWrittenWithoutAPromptFromIOS11() async {
        let fixture = F()
        fixture.keychain.save(host: "example.com", account: "alice", password: "same", comment: "safari")
        let modern = await fixture.add("example.com", "alice", "same", app: F.app("11.0"))
        #expect(modern.prompt == nil && modern.status == 0)
        #expect(fixture.stored.first?["icmt"] == .string("default"))
        let old = await fixture.add("example.com", "alice", "same", app: F.app("10.3"))
        #expect(old.prompt?.kind == .update)
    }

    @Test func aChangedPasswordAsksToUpdateAndKeepsTheOldOneWhenDeclined() async throws {
        let fixture = F()
        fixture.keychain.save(host: "example.com", account: "alice", password: "old")
        let asked = await fixture.add("example.com", "alice", "new", app: F.app("17.4"))
        #expect(asked.prompt?.title == "“DemoApp” Would Like to Update the Saved Password for “example.com”")
        #expect(asked.prompt?.approveButton == "Update Password")
        _ = await fixture.add("example.com", "alice", "new", app: F.app("17.4"), answer: .decline)
        #expect(fixture.stored.first?["v_Data"] == .data(Data("old".utf8)))
        _ = await fixture.add("example.com", "alice", "new", app: F.app("17.4"), answer: .approve)
        #expect(fixture.stored.first?["v_Data"] == .data(Data("new".utf8)))
    }

    @Test func deleteAlwaysPromptsAndNothingToDeleteIsASilentSuccess() async {
        let fixture = F()
        let nothing = await fixture.add("example.com", "alice", nil, app: F.app("12.5"))
        #expect(nothing.prompt == nil && nothing.status == 0)
        fixture.keychain.save(host: "example.com", account: "alice", password: "pw")
        let asked = await fixture.add("example.com", "alice", nil, app: F.app("12.5"))
        #expect(asked.prompt?.title == "“DemoApp” Would Like to Delete the Saved Password for “example.com”")
        #expect(asked.prompt?.approveButton == "Delete Password")
        _ = await fixture.add("example.com", "alice", nil, app: F.app("12.5"), answer: .approve)
        #expect(fixture.stored.isEmpty)
    }

    @Test func entitlementRefusalsAreMissingEntitlementWithApplesMessages() async {
        let fixture = F()
        let unlisted = await fixture.add("other.example", "alice", "pw", app: F.app("17.4"))
        #expect(unlisted.status == -34018)
        #expect(unlisted.error?.message == "other.example not found in com.apple.developer.associated-domains entitlement")
        #expect(unlisted.error?.domain == "NSOSStatusErrorDomain" && unlisted.error?.code == -34018)
        let anonymous = await fixture.add("example.com", "alice", "pw", app: F.app("17.4", appID: nil))
        #expect(anonymous.error?.message == "Missing application-identifier entitlement")
    }

    @Test func beforeIOS14TheEntryMustEqualTheHostExactly() async {
        let fixture = F()
        let upper = await fixture.add("Example.com", "alice", "pw", app: F.app("13.7"))
        #expect(upper.status == -34018)
        let withPort = F.app("13.7", domains: ["webcredentials:example.com:8443"])
        #expect(await fixture.add("example.com:8443", "alice", "pw", app: withPort).status == -34018)
        // From iOS 14 the host is compared case-insensitively and the port must agree.
        let modern = await fixture.add("Example.com", "alice", "pw", app: F.app("14.0"))
        #expect(modern.prompt?.kind == .add)
        let modernPort = F.app("14.0", domains: ["webcredentials:example.com:8443"])
        #expect(await fixture.add("example.com:8443", "alice", "pw", app: modernPort).prompt?.kind == .add)
        #expect(await fixture.add("example.com:9000", "alice", "pw", app: modernPort).status == -34018)
    }

    @Test func anUnapprovedSiteIsAuthFailedNamingSiteAndApp() async {
        var fixture = F()
        fixture.sites = FixedSites([])
        let refused = await fixture.add("example.com", "alice", "pw", app: F.app("17.4"))
        #expect(refused.status == -25293)
        #expect(refused.error?.message == "\"example.com\" failed to approve \"D3KQX62K1A.com.example.DemoApp\"")
    }

    @Test func argumentAndSettingRefusals() async {
        let fixture = F()
        #expect(await fixture.add("example.com", "", "pw", app: F.app("17.4")).error?.message == "No account provided")
        #expect(await fixture.add("", "alice", "pw", app: F.app("17.4")).error?.message == "No domain provided")
        let off12 = await fixture.add("example.com", "alice", "pw", app: F.app("12.5", autoFill: false))
        #expect(off12.status == -909 && off12.error?.message == "Autofill is not enabled in Safari settings")
        let off17 = await fixture.add("example.com", "alice", "pw", app: F.app("17.4", autoFill: false))
        #expect(off17.error?.message == "Password AutoFill for iCloud Keychain must be enabled in Settings > Passwords to save passwords")
        let mac = await fixture.add("example.com", "alice", "pw", app: F.app("14.0", platform: .macos))
        #expect(mac.status == -4 && mac.error?.message == "SecAddSharedWebCredentialSync not supported on this platform")
    }

    @Test func safarisNeverSaveMarkerRefusesTheAdd() async {
        let fixture = F()
        fixture.keychain.save(host: "example.com", account: "Passwords not saved", password: "")
        let refused = await fixture.add("example.com", "alice", "pw", app: F.app("17.4"))
        #expect(refused.status == -25299 && refused.error?.message == "Item already exists for this server")
    }

    @Test func anAnswerToAnotherPromptIsNotApplied() async {
        let fixture = F()
        var request = WebCredentialAPI.AddRequest(caller: F.caller, fqdn: "example.com", account: "alice", password: "pw")
        request.consent = Consent(prompt: "not-this-prompt", answer: .approve)
        let outcome = await fixture.broker.add(request, app: F.app("17.4"))
        #expect(outcome.prompt?.kind == .add)
        #expect(fixture.stored.isEmpty)
    }

    @Test func unreachableServicesAreAClearErrorAndChangeNothing() async {
        var fixture = F()
        fixture.sites = FixedSites([], isDown: true)
        let noSites = await fixture.add("example.com", "alice", "pw", app: F.app("17.4"))
        #expect(noSites.status == -25291 && noSites.error?.message.contains("associationd") == true)
        let fixture2 = F()
        fixture2.keychain.isDown.withLock { $0 = true }
        let noKeychain = await fixture2.add("example.com", "alice", "pw", app: F.app("17.4"))
        #expect(noKeychain.status == -25291 && noKeychain.error?.message.contains("keychaind") == true)
    }
}
