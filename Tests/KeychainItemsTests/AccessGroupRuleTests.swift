import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// Sharing and isolation by access group (spec keychain.md §1, seed 000).
@Suite struct AccessGroupRuleTests {
    typealias F = Fixtures

    @Test func addsToTheFirstGroupByDefault() async throws {
        let engine = F.engine()
        let added = await engine.add(F.password(["r_Attributes": .bool(true)]), client: F.one)
        #expect(added.status == .success)
        #expect(added.result?.dictionaryValue?["agrp"] == .string(F.shared))
        let plain = await engine.add(F.password(), client: F.client([F.appOne, F.suite]))
        #expect(plain.status == .success)
        let found = await engine.copyMatching(F.query(["r_Attributes": .bool(true)]), client: F.client([F.appOne, F.suite]))
        #expect(found.result?.dictionaryValue?["agrp"] == .string(F.appOne), "without keychain groups the app ID is the default")
    }

    @Test func appsShareThroughAKeychainGroupAndAnAppGroup() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("token"), client: F.one).status == .success)
        #expect(await engine.add(F.password("suite", ["agrp": .string(F.suite)]), client: F.one).status == .success)
        #expect(await engine.add(F.password("private", ["agrp": .string(F.appOne)]), client: F.one).status == .success)

        let two = await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]), client: F.two)
        #expect(Self.accounts(two) == ["token"])
        let suite = F.client(["ABCDE12345.com.example.AppOne.Suite", F.suite])
        let fromExtension = await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]), client: suite)
        #expect(Self.accounts(fromExtension) == ["suite"])
        let snooper = await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll")]), client: F.snooper)
        #expect(snooper.status == .itemNotFound)
        let all = await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]), client: F.one)
        #expect(Set(Self.accounts(all)) == ["token", "suite", "private"])
    }

    @Test(arguments: [
        (Platform.ios, "17.4", SecStatus.missingEntitlement),
        (.ios, "13.0", .missingEntitlement),
        (.ios, "12.5", .itemNotFound),
        (.macos, "14.5", .missingEntitlement),
        (.macos, "10.14", .itemNotFound),
    ])
    func readingAForeignGroupDependsOnTheOSVersion(_ platform: Platform, _ version: String, _ expected: SecStatus) async {
        let engine = F.engine()
        _ = await engine.add(F.password(), client: F.one)
        let snooper = F.client([F.other], platform: platform, version: version)
        let result = await engine.copyMatching(F.query(["agrp": .string(F.shared)]), client: snooper)
        #expect(result.status == expected)
        let update = await engine.update(F.query(["agrp": .string(F.shared)]), attributesToUpdate: ["labl": .string("x")], client: snooper)
        #expect(update.status == expected)
        let delete = await engine.delete(F.query(["agrp": .string(F.shared)]), client: snooper)
        #expect(delete.status == expected)
    }

    @Test(arguments: ["17.4", "12.5"])
    func addingToAForeignGroupIsAlwaysMissingEntitlement(_ version: String) async {
        let engine = F.engine()
        let result = await engine.add(F.password(["agrp": .string(F.shared)]), client: F.client([F.other], version: version))
        #expect(result.status == .missingEntitlement && result.rule == .accessGroup)
        #expect(result.reason?.contains(F.shared) == true)
    }

    /// The rule that decided travels with the status: -50 alone has thirty causes, so metrics and
    /// the audit log count refusals by rule.
    @Test func eachRefusalNamesItsRule() async {
        let engine = F.engine()
        #expect((await engine.add(F.password([:]), client: F.one)).rule == nil, "a success has no rule")
        #expect((await engine.add(F.password([:]), client: F.one)).rule == .duplicate)
        #expect((await engine.copyMatching(F.query(["acct": .string("nobody")]), client: F.one)).rule == .noMatch)
        #expect((await engine.copyMatching(F.query(["u_ItemList": .array([])]), client: F.one)).rule == .queryForm)
        #expect((await engine.add(F.password(["pdmn": .string("nonsense")]), client: F.one)).rule == .attribute)
        #expect((await engine.copyMatching(["class": .string("nonsense")], client: F.one)).rule == .attribute)
    }

    /// A -25300 whose item is in a group the caller does not hold says so in its reason (the app
    /// sees only the status, as on a device), and one whose item is in a group the query did not
    /// name says that; a query nothing matches anywhere keeps the plain reason.
    @Test func aMissWhoseItemIsElsewhereNamesTheGroup() async throws {
        let engine = F.engine()
        #expect(await engine.add(F.password("private", ["agrp": .string(F.appOne)]), client: F.one).status == .success)
        let two = await engine.copyMatching(F.query(["acct": .string("private")]), client: F.two)
        #expect(two.status == .itemNotFound && two.rule == .otherGroup)
        #expect(two.reason?.contains("access group '\(F.appOne)', which the app does not hold") == true, "\(two.reason ?? "")")
        let update = await engine.update(F.query(["acct": .string("private")]), attributesToUpdate: ["labl": .string("x")], client: F.two)
        #expect(update.status == .itemNotFound && update.rule == .otherGroup)
        let delete = await engine.delete(F.query(["acct": .string("private")]), client: F.two)
        #expect(delete.status == .itemNotFound && delete.rule == .otherGroup)
        let named = await engine.copyMatching(F.query(["acct": .string("private"), "agrp": .string(F.shared)]), client: F.one)
        #expect(named.status == .itemNotFound && named.rule == .noMatch)
        #expect(named.reason?.contains("'\(F.appOne)', which the query did not name") == true, "\(named.reason ?? "")")
        let nowhere = await engine.copyMatching(F.query(["acct": .string("nobody")]), client: F.two)
        #expect(nowhere.rule == .noMatch && nowhere.reason?.contains("a matching item") == false)
    }

    /// A group written without its team prefix is refused, and the refusal names the group the
    /// app holds under that name: the usual mistake, and its fix.
    @Test func aGroupWithoutItsPrefixIsRefusedWithTheOneMeant() async throws {
        let engine = F.engine()
        let bare = try #require(F.shared.split(separator: ".", maxSplits: 1).last.map(String.init))
        let add = await engine.add(F.password(["agrp": .string(bare)]), client: F.one)
        #expect(add.status == .missingEntitlement)
        #expect(add.reason?.contains("did you mean '\(F.shared)'") == true, "\(add.reason ?? "")")
        let copy = await engine.copyMatching(F.query(["agrp": .string(bare)]), client: F.one)
        #expect(copy.status == .missingEntitlement && copy.reason?.contains("did you mean '\(F.shared)'") == true)
        let foreign = await engine.copyMatching(F.query(["agrp": .string(F.shared)]), client: F.client([F.other]))
        #expect(foreign.reason?.contains("did you mean") == false, "no hint when the app holds no such group")
    }

    @Test func theEmptyGroupIsNeverGranted() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["agrp": .string("")]), client: F.one).status == .missingEntitlement)
        #expect(await engine.copyMatching(F.query(["agrp": .string("")]), client: F.one).status == .missingEntitlement)
    }

    @Test func aClientWithoutGroupsIsRefusedBeforeItsDictionaryIsRead() async {
        let engine = F.engine()
        let nobody = F.client([])
        #expect(await engine.add(["bogus": .string("x")], client: nobody).status == .missingEntitlement)
        #expect(await engine.copyMatching([:], client: nobody).status == .missingEntitlement)
        #expect(await engine.add(["clip": .bool(true)], client: nobody).status == .param, "the internal-attribute check comes first")
    }

    @Test func theTokenGroupIsReadOnlyAndImplicitOnMacOSOnly() async {
        let mac = F.client([F.appOne], platform: .macos, version: "14.5")
        #expect(mac.accessGroups.map(\.rawValue) == [F.appOne, "com.apple.token"])
        #expect(F.one.accessGroups.contains(.token) == false)
        let listed = F.client(["com.apple.token", F.appOne])
        #expect(listed.accessGroups.map(\.rawValue) == [F.appOne, "com.apple.token"], "the token group moves to the end")
        let engine = F.engine()
        #expect(await engine.add(F.password(["agrp": .string("com.apple.token")]), client: mac).status == .missingEntitlement)
        #expect(await engine.copyMatching(F.query(["agrp": .string("com.apple.token")]), client: mac).status == .itemNotFound)
    }

    static func accounts(_ result: SecItemResult) -> [String] {
        guard case .array(let items)? = result.result else { return [] }
        return items.compactMap { $0.dictionaryValue?["acct"]?.string }
    }
}
