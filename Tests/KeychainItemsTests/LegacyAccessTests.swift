import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// `kSecAttrAccess` (SecAccessCreate, macOS's legacy access control lists; spec keychain.md §5):
/// the apps it trusts become a login-keychain item's list and its descriptor the item's name in
/// prompts; it sends a Mac's call to the login keychain, macOS drops it on the way to the
/// data-protection keychain and from searches, and iOS has no such attribute.
@Suite struct LegacyAccessTests {
    typealias F = Fixtures

    static let notes = FileKeychainTests.notes
    static let mail = FileKeychainTests.mail
    static let systemUIServer = "/System/Library/CoreServices/SystemUIServer.app"

    static func access(_ trusted: [LegacyAccess.TrustedApplication]?, descriptor: String = "Access Control List") -> SecValue {
        LegacyAccess(descriptor: descriptor, trustedApplications: trusted).secValue
    }

    @Test func anAddTrustsTheAppsOnItsList() async throws {
        let engine = F.engine()
        let added = await engine.add(F.password(["acls": Self.access([.caller, .path(Self.systemUIServer)])]), client: Self.notes)
        #expect(added.status == .success, "\(added.reason ?? "")")
        let decisions = try #require(await engine.fileKeychainDecisions(F.query(), client: Self.notes))
        #expect(decisions.map(\.trustedApps) == [["ABCDE12345.com.example.Notes", Self.systemUIServer]])
        #expect(decisions.map(\.partitions) == [["teamid:ABCDE12345"]])
        #expect(decisions.map(\.item) == ["Access Control List"], "the descriptor names the item in prompts")
        #expect(await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: Self.notes).result == .data(Data("s3cret-alice".utf8)))
        let other = await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: Self.mail)
        #expect(other.confirmation == .allowUse(item: "Access Control List", needsPassword: false))
    }

    /// SecAccessCreate without a list trusts the app that adds the item; with an empty one, no app.
    @Test func noListTrustsTheCreatorAndAnEmptyOneNobody() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice", ["acls": Self.access(nil)]), client: Self.notes).status == .success)
        #expect(await engine.add(F.password("bob", ["acls": Self.access([])]), client: Self.notes).status == .success)
        let alice = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Data": .bool(true)]), client: Self.notes)
        #expect(alice.result == .data(Data("s3cret-alice".utf8)))
        let bob = await engine.copyMatching(F.query(["acct": .string("bob"), "r_Data": .bool(true)]), client: Self.notes)
        #expect(bob.status == .interactionNotAllowed, "not even its creator is on an empty list")
        let decisions = await engine.fileKeychainDecisions(F.query(["acct": .string("bob")]), client: Self.notes)
        #expect(decisions?.map(\.trustedApps) == [[]])
    }

    /// Valet's MacTests: with kSecUseDataProtectionKeychain the item goes to the data-protection
    /// keychain, which drops the access; a search that names one finds the item all the same.
    @Test func theDataProtectionKeychainAndSearchesDropIt() async throws {
        let engine = F.engine()
        let query = F.query(["nleg": .bool(true), "acct": .string("KeepIt")])
        let attributes = query.merging(["acls": Self.access([.caller]), "v_Data": .data(Data("Secret".utf8))]) { $1 }
        let added = await engine.add(attributes, client: Self.notes)
        #expect(added.status == .success, "\(added.reason ?? "")")
        let found = await engine.copyMatching(query.merging(["acls": Self.access(nil), "r_Attributes": .bool(true)]) { $1 }, client: Self.notes)
        #expect(found.result?.dictionaryValue?["acct"] == .string("KeepIt"), "\(found.reason ?? "")")
        #expect(found.result?.dictionaryValue?["acls"] == nil)
        #expect(await engine.fileKeychainDecisions(F.query(), client: Self.notes) == [], "nothing in the login keychain")
        #expect(await engine.add(F.password("file"), client: Self.notes).status == .success)
        let inFile = await engine.copyMatching(F.query(["acct": .string("file"), "acls": Self.access(nil)]), client: Self.notes)
        #expect(inFile.result?.dictionaryValue?["$ref"] == .string("genp"), "routed to the login keychain, the access not searched on")
        #expect(await engine.delete(F.query(["acls": Self.access(nil)]), client: Self.notes).status == .success)
    }

    @Test(arguments: [
        ["accc": SecValue.dictionary(["prot": .string("ak"), "flags": .integer(0)])],
        ["sync": .bool(true)],
        ["agrp": .string("com.apple.token")],
    ])
    func neitherKeychainTakesItWithADataProtectionKey(_ extra: [String: SecValue]) async {
        let engine = F.engine()
        let added = await engine.add(F.password(["acls": Self.access(nil)]).merging(extra) { $1 }, client: Self.notes)
        #expect(added.status == .param)
        #expect(added.reason?.contains("kSecAttrAccess is the login keychain's") == true, "\(added.reason ?? "")")
        #expect(await engine.copyMatching(F.query(["acls": Self.access(nil)]).merging(extra) { $1 }, client: Self.notes).status == .param)
    }

    @Test func aValueThatIsNoSecAccessIsRefused() async {
        let result = await F.engine().add(F.password(["acls": .string("everyone")]), client: Self.notes)
        #expect(result.status == .param)
        #expect(result.reason == "SecItemAdd: kSecAttrAccess must be a SecAccess (SecAccessCreate)")
    }

    @Test func iOSHasNoSuchAttribute() async {
        let result = await F.engine().add(F.password(["acls": Self.access(nil)]), client: F.one)
        #expect(result.status == .noSuchAttr)
        #expect(result.reason?.contains("kSecAttrAccess is a Mac login keychain's access control list") == true, "\(result.reason ?? "")")
    }

    /// SecItemUpdate with kSecAttrAccess gives the login keychain's items the new list (an app the
    /// old list trusts changes it, as any change); the data-protection keychain has no such attribute.
    @Test func anUpdateReplacesTheList() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password(), client: Self.notes).status == .success)
        let changes = ["acls": Self.access([.caller, .path("/Applications/Mail.app")], descriptor: "Shared")]
        #expect(await engine.update(F.query(), attributesToUpdate: changes, client: Self.mail).status == .interactionNotAllowed)
        let updated = await engine.update(F.query(), attributesToUpdate: changes, client: Self.notes)
        #expect(updated.status == .success, "\(updated.reason ?? "")")
        let decisions = await engine.fileKeychainDecisions(F.query(), client: Self.notes)
        #expect(decisions?.map(\.trustedApps) == [["ABCDE12345.com.example.Notes", "/Applications/Mail.app"]])
        #expect(decisions?.map(\.item) == ["Shared"])
        let dataProtection = await engine.update(F.query(["nleg": .bool(true)]), attributesToUpdate: changes, client: Self.notes)
        #expect(dataProtection.status == .noSuchAttr)
    }
}
