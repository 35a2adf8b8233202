import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// A macOS app on a Mac: calls routed between the data-protection keychain and the login keychain,
/// and the login keychain's access control lists (spec keychain.md §5).
@Suite struct FileKeychainTests {
    typealias F = Fixtures

    static func macApp(_ appID: String, groups: [String] = [], team: String = "ABCDE12345", locked: Bool = false) -> ClientContext {
        ClientContext(
            caller: .app(try! AppID(appID)),
            entitledGroups: (groups + [appID]).map { try! AccessGroup($0) },
            device: DeviceState(platform: .macos, osVersion: try! OSVersion("14.5")),
            deviceKeychain: "device:mac",
            fileKeychain: FileKeychainAccess(keychain: FileKeychain.keychain(device: "mac"), partition: "teamid:\(team)", isLocked: locked)
        )
    }

    static let notes = macApp("ABCDE12345.com.example.Notes", groups: [F.shared])
    static let mail = macApp("ABCDE12345.com.example.Mail", groups: [F.shared])
    static let stranger = macApp("OTHER98765.com.other.Reader", team: "OTHER98765")

    @Test func anAddWithoutDataProtectionGoesToTheLoginKeychain() async throws {
        let engine = F.engine()
        let added = await engine.add(
            F.password("alice", ["r_Attributes": .bool(true), "agrp": .string(F.shared), "pdmn": .string("ak")]),
            client: Self.notes
        )
        #expect(added.status == .success, "\(added.reason ?? "")")
        let attributes = try #require(added.result?.dictionaryValue)
        #expect(attributes["acct"] == .string("alice"))
        for hidden in ["agrp", "pdmn", "sync", "$acl"] {
            #expect(attributes[hidden] == nil, "the login keychain has no \(hidden)")
        }
        let dataProtectionOnly = await engine.copyMatching(F.query(["nleg": .bool(true)]), client: Self.notes)
        #expect(dataProtectionOnly.status == .itemNotFound)
        let either = await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: Self.notes)
        #expect(either.result == .data(Data("s3cret-alice".utf8)))
        #expect(await engine.copyMatching(F.query(), client: F.one).status == .itemNotFound, "an iPhone's keychain is another")
    }

    @Test func dataProtectionWhenAskedOrSynchronizable() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("dp", ["nleg": .bool(true)]), client: Self.notes).status == .success)
        #expect(await engine.add(F.password("synced", ["sync": .bool(true)]), client: Self.notes).status == .success)
        #expect(await engine.add(F.password("file"), client: Self.notes).status == .success)
        let inFile = await engine.copyMatching(
            F.query(["nleg": .bool(false), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]),
            client: Self.notes
        )
        #expect(inFile.result?.array?.compactMap { $0.dictionaryValue?["acct"]?.string } == ["file"])
        let both = await engine.copyMatching(
            F.query(["sync": .string("syna"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]),
            client: Self.notes
        )
        #expect(both.result?.array?.compactMap { $0.dictionaryValue?["acct"]?.string } == ["dp", "synced", "file"], "data protection first")
        let first = try #require(both.result?.array?.first?.dictionaryValue)
        #expect(first["agrp"] == .string(F.shared))
        let fileOnly = await engine.copyMatching(
            F.query(["nleg": .bool(false), "m_Limit": .string("m_LimitAll"), "r_Data": .bool(true)]),
            client: Self.notes
        )
        #expect(fileOnly.status == .param, "the file keychain gives no password data for several items")
    }

    /// The creator is trusted; another app, of the team or not, may see attributes but not use the
    /// secret, change or delete the item without the user's say.
    /// A locked login keychain: what must open it (an add, a secret, an update or a delete of items
    /// found) asks for the keychain, by name, to be unlocked; attributes are read without.
    @Test func aLockedLoginKeychainOpensOnlyForAttributes() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice"), client: Self.notes).status == .success)
        let locked = Self.macApp("ABCDE12345.com.example.Notes", groups: [F.shared], locked: true)
        let attributes = await engine.copyMatching(F.query(["r_Attributes": .bool(true)]), client: locked)
        #expect(attributes.result?.dictionaryValue?["acct"] == .string("alice"))
        let unlock = Confirmation.unlock(keychain: "login")
        let secret = await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: locked)
        #expect(secret.status == .interactionNotAllowed)
        #expect(secret.confirmation == unlock)
        #expect(await engine.add(F.password("bob"), client: locked).confirmation == unlock)
        #expect(await engine.update(F.query(), attributesToUpdate: ["labl": .string("x")], client: locked).confirmation == unlock)
        #expect(await engine.delete(F.query(), client: locked).confirmation == unlock)
        #expect(await engine.delete(F.query(["acct": .string("nobody")]), client: locked).status == .itemNotFound, "nothing found, nothing to open")
        let dataProtection = await engine.add(F.password("carol", ["nleg": .bool(true)]), client: locked)
        #expect(dataProtection.status == .success, "the data-protection keychain does not lock with it")
        let unlocked = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Data": .bool(true)]), client: Self.notes)
        #expect(unlocked.result == .data(Data("s3cret-alice".utf8)))
    }

    /// Partitions as macOS names them: a team's apps, Apple's apps, Apple's command-line tools.
    @Test func partitionsFollowTheSigner() throws {
        #expect(FileKeychain.partition(of: try TeamID("ABCDE12345")) == "teamid:ABCDE12345")
        #expect(FileKeychain.partition(of: .platform) == "apple:")
        #expect(FileKeychain.partition(of: .platform, claimsApplicationIdentifier: false) == "apple-tool:")
        #expect(FileKeychain.partition(of: try TeamID("ABCDE12345"), claimsApplicationIdentifier: false) == "teamid:ABCDE12345")
    }

    @Test func onlyTrustedAppsUseTheSecret() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice", ["labl": .string("Notes sync")]), client: Self.notes).status == .success)
        for other in [Self.mail, Self.stranger] {
            let attributes = await engine.copyMatching(F.query(["r_Attributes": .bool(true)]), client: other)
            #expect(attributes.result?.dictionaryValue?["acct"] == .string("alice"))
            let secret = await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: other)
            #expect(secret.status == .interactionNotAllowed)
            #expect(secret.reason?.contains("“Notes sync”") == true, "\(secret.reason ?? "")")
            // Another team's partition is not on the item's list: allowing it takes the password.
            #expect(secret.confirmation == .allowUse(item: "Notes sync", needsPassword: other.caller == Self.stranger.caller))
            #expect(await engine.update(F.query(), attributesToUpdate: ["labl": .string("x")], client: other).status == .interactionNotAllowed)
            #expect(await engine.delete(F.query(), client: other).status == .interactionNotAllowed)
        }
        #expect(await engine.update(F.query(), attributesToUpdate: ["v_Data": .data(Data("new".utf8))], client: Self.notes).status == .success)
        #expect(await engine.copyMatching(F.query(["r_Data": .bool(true)]), client: Self.notes).result == .data(Data("new".utf8)))
        #expect(await engine.delete(F.query(), client: Self.notes).status == .success)
    }

    /// On the data-protection side access groups decide, as on iOS; a missing entitlement there is
    /// ignored when the login keychain answers.
    @Test func aDataProtectionRefusalGivesWayToTheLoginKeychain() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice"), client: Self.stranger).status == .success)
        let named = await engine.copyMatching(F.query(["agrp": .string(F.shared), "r_Attributes": .bool(true)]), client: Self.stranger)
        #expect(named.status == .success, "-34018 on the data-protection side, the login keychain's item found")
        #expect(
            await engine.copyMatching(F.query(["agrp": .string(F.shared), "nleg": .bool(true)]), client: Self.stranger).status == .missingEntitlement
        )
    }

    /// A query asking for nothing gets a reference from the login keychain (its default result),
    /// nothing from the data-protection keychain.
    @Test func theLoginKeychainAnswersWithAReferenceByDefault() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice"), client: Self.notes).status == .success)
        #expect(await engine.add(F.password("bob", ["nleg": .bool(true)]), client: Self.notes).status == .success)
        let login = await engine.copyMatching(F.query(["acct": .string("alice"), "nleg": .bool(false)]), client: Self.notes)
        #expect(login.result?.dictionaryValue?["$ref"] == .string("genp"))
        let dataProtection = await engine.copyMatching(F.query(["acct": .string("bob"), "nleg": .bool(true)]), client: Self.notes)
        #expect(dataProtection.status == .success && dataProtection.result == nil)
    }
}
