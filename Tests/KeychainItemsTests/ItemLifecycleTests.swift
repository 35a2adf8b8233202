import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// Add, CopyMatching, Update and Delete: keys, defaults, shapes, atomicity (spec keychain.md §2.1–§2.6).
@Suite struct ItemLifecycleTests {
    typealias F = Fixtures

    @Test func primaryKeysDecideDuplicates() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(), client: F.one).status == .success)
        #expect(await engine.add(F.password(), client: F.one).status == .duplicateItem)
        #expect(await engine.add(F.password(["agrp": .string(F.appOne)]), client: F.one).status == .success, "another group")
        #expect(await engine.add(F.password(["sync": .bool(true)]), client: F.one).status == .success, "another sync state")
        #expect(await engine.add(F.password(["labl": .string("changed")]), client: F.one).status == .duplicateItem, "labels are not in the key")
        #expect(await engine.add(F.password(["acct": .data(Data("alice".utf8))]), client: F.one).status == .success, "data is not text")
        // Omitted primary-key attributes default to "": two such adds collide.
        #expect(await engine.add(["class": .string("genp")], client: F.one).status == .success)
        #expect(await engine.add(["class": .string("genp"), "acct": .string("")], client: F.one).status == .duplicateItem)
    }

    @Test func addFillsDefaultsAndForcesDates() async throws {
        let clock = Date(timeIntervalSince1970: 1_800_000_000)
        let engine = KeychainEngine(store: InMemoryItemStore(), now: { clock })
        let result = await engine.add(
            ["class": .string("genp"), "svce": .string("s"), "cdat": .date(.distantPast), "r_Attributes": .bool(true)],
            client: F.one
        )
        let attributes = try #require(result.result?.dictionaryValue)
        #expect(attributes["acct"] == .string(""))
        #expect(attributes["pdmn"] == .string("ak"))
        #expect(attributes["sync"] == .integer(0))
        #expect(attributes["agrp"] == .string(F.shared))
        #expect(attributes["cdat"] == .date(clock))
        #expect(attributes["mdat"] == .date(clock))
        #expect(attributes["class"] == nil)
        #expect(attributes["v_Data"] == nil)
        let certificate = await engine.add(["class": .string("cert"), "r_Attributes": .bool(true)], client: F.one)
        #expect(certificate.result?.dictionaryValue?["pdmn"] == .string("dk"), "certificates default to Always")
    }

    @Test func shapesResultsAsAppleDoes() async throws {
        let engine = F.engine()
        _ = await engine.add(F.password("alice"), client: F.one)
        _ = await engine.add(F.password("bob"), client: F.one)

        #expect(await engine.copyMatching(F.query(), client: F.one).result == nil, "no return key, no result")
        let data = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Data": .bool(true)]), client: F.one)
        #expect(data.result == .data(Data("s3cret-alice".utf8)))
        let reference = await engine.copyMatching(F.query(["acct": .string("alice"), "r_PersistentRef": .bool(true)]), client: F.one)
        let bytes = try #require(reference.result?.data)
        #expect(bytes.count == 20 && bytes.prefix(4) == Data("genp".utf8))
        let byReference = await engine.copyMatching(["v_PersistentRef": .data(bytes), "r_Data": .bool(true)], client: F.one)
        #expect(byReference.result == .data(Data("s3cret-alice".utf8)), "a persistent reference implies the class")
        #expect(await engine.copyMatching(["v_PersistentRef": .data(bytes), "acct": .string("x")], client: F.one).status == .param)
        let ref = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Ref": .bool(true)]), client: F.one)
        #expect(ref.status == .success && ref.result == nil, "passwords have no ref on iOS")

        let one = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Attributes": .bool(true), "r_Data": .bool(true)]), client: F.one)
        #expect(one.result?.dictionaryValue?["v_Data"] == .data(Data("s3cret-alice".utf8)))
        let all = await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)]), client: F.one)
        #expect(all.result?.array?.count == 2)
        let single = await engine.copyMatching(
            F.query(["acct": .string("bob"), "m_Limit": .string("m_LimitAll"), "r_Data": .bool(true)]),
            client: F.one
        )
        #expect(single.result == .array([.data(Data("s3cret-bob".utf8))]), "a limit above one gives an array even for one match")
        let two = await engine.copyMatching(F.query(["m_Limit": .integer(2), "r_PersistentRef": .bool(true)]), client: F.one)
        #expect(two.result?.array?.count == 2)
        let limitOne = await engine.copyMatching(F.query(["m_Limit": .integer(1), "r_Attributes": .bool(true)]), client: F.one)
        #expect(limitOne.result?.dictionaryValue != nil, "a CFNumber limit of 1 is limit one")
        let withRef = await engine.copyMatching(F.query(["acct": .string("bob"), "r_Attributes": .bool(true), "r_Ref": .bool(true)]), client: F.one)
        #expect(withRef.result?.dictionaryValue?["class"] == .string("genp"))
        #expect(await engine.copyMatching(F.query(["acct": .string("carol")]), client: F.one).status == .itemNotFound)
    }

    @Test func updateChangesEveryMatchOrNothing() async throws {
        let engine = F.engine()
        _ = await engine.add(F.password("alice"), client: F.one)
        _ = await engine.add(F.password("bob"), client: F.one)
        let renamed = await engine.update(F.query(["acct": .string("alice")]), attributesToUpdate: ["acct": .string("bob")], client: F.one)
        #expect(renamed.status == .duplicateItem)
        #expect(await engine.copyMatching(F.query(["acct": .string("alice")]), client: F.one).status == .success, "rolled back")
        let relabelled = await engine.update(F.query(), attributesToUpdate: ["labl": .string("both")], client: F.one)
        #expect(relabelled.status == .success)
        let labelled = await engine.copyMatching(F.query(["labl": .string("both"), "m_Limit": .string("m_LimitAll")]), client: F.one)
        #expect(labelled.status == .success)
        let secret = await engine.update(F.query(["acct": .string("alice")]), attributesToUpdate: ["v_Data": .data(Data("new".utf8))], client: F.one)
        #expect(secret.status == .success)
        #expect(
            await engine.copyMatching(F.query(["acct": .string("alice"), "r_Data": .bool(true)]), client: F.one).result == .data(Data("new".utf8))
        )
        #expect(
            await engine.update(F.query(["acct": .string("carol")]), attributesToUpdate: ["labl": .string("x")], client: F.one).status
                == .itemNotFound
        )
    }

    @Test func updateMovesItemsBetweenGroups() async {
        let engine = F.engine()
        _ = await engine.add(F.password(["agrp": .string(F.appOne)]), client: F.one)
        #expect(await engine.copyMatching(F.query(), client: F.two).status == .itemNotFound)
        #expect(await engine.update(F.query(), attributesToUpdate: ["agrp": .string(F.shared)], client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(), client: F.two).status == .success)
        #expect(await engine.update(F.query(), attributesToUpdate: ["agrp": .string(F.other)], client: F.one).status == .missingEntitlement)
        let legacy = F.client([F.shared, F.appOne], version: "12.5")
        #expect(await engine.update(F.query(), attributesToUpdate: ["agrp": .string(F.other)], client: legacy).status == .noAccessForItem)
    }

    @Test func updateModificationDatesOnlyMoveForward() async throws {
        let frozen = Date(timeIntervalSince1970: 1_800_000_000)
        let engine = KeychainEngine(store: InMemoryItemStore(), now: { frozen })
        _ = await engine.add(F.password(), client: F.one)
        _ = await engine.update(F.query(), attributesToUpdate: ["labl": .string("x")], client: F.one)
        let found = await engine.copyMatching(F.query(["r_Attributes": .bool(true)]), client: F.one)
        guard case .date(let modified)? = found.result?.dictionaryValue?["mdat"], case .date(let created)? = found.result?.dictionaryValue?["cdat"]
        else {
            Issue.record("no dates")
            return
        }
        #expect(modified > created)
    }

    @Test(arguments: [
        ("return key in the query", Fixtures.query(["r_Data": .bool(true)]), ["labl": SecValue.string("x")], SecStatus.param),
        ("match limit in the query", Fixtures.query(["m_Limit": .string("m_LimitOne")]), ["labl": .string("x")], .param),
        ("class among the changes", Fixtures.query(), ["class": .string("genp")], .noSuchAttr),
        ("return key among the changes", Fixtures.query(), ["r_Data": .bool(true)], .noSuchAttr),
        ("unknown attribute among the changes", Fixtures.query(), ["zzzz": .string("x")], .noSuchAttr),
        ("data that is not data", Fixtures.query(), ["v_Data": .string("x")], .param),
    ])
    func updateRejects(_ name: String, _ query: [String: SecValue], _ changes: [String: SecValue], _ expected: SecStatus) async {
        let engine = F.engine()
        _ = await engine.add(F.password(), client: F.one)
        #expect(await engine.update(query, attributesToUpdate: changes, client: F.one).status == expected, "\(name)")
    }

    @Test func macOSStripsMatchAndReturnKeysFromUpdateAndDelete() async {
        let engine = F.engine()
        let mac = F.client([F.appOne], platform: .macos, version: "14.5")
        _ = await engine.add(F.password(["m_Limit": .string("m_LimitAll")]), client: mac)
        #expect(
            await engine.update(
                F.query(["r_Data": .bool(true), "m_Limit": .string("m_LimitAll")]),
                attributesToUpdate: ["labl": .string("x")],
                client: mac
            ).status == .success
        )
        #expect(await engine.delete(F.query(["m_Limit": .string("m_LimitAll")]), client: mac).status == .success)
        #expect(
            await engine.delete(F.query(["m_Limit": .string("m_LimitAll")]), client: F.one).status == .param,
            "iOS refuses a match limit on delete"
        )
    }

    /// kSecReturnRef on a password: nothing on iOS, a keychain item reference on macOS, from the
    /// data-protection keychain too (spec keychain.md §5), alone, in attributes, and from an add.
    @Test func macOSReturnsAReferenceForPasswords() async throws {
        let engine = F.engine()
        let mac = F.client([F.appOne], platform: .macos, version: "14.5")
        let added = await engine.add(F.password("alice", ["r_Ref": .bool(true)]), client: mac)
        let reference = try #require(added.result?.dictionaryValue)
        #expect(reference["$ref"] == .string("genp"))
        let persistent = try #require(reference["v_PersistentRef"]?.data)
        let alone = await engine.copyMatching(F.query(["acct": .string("alice"), "r_Ref": .bool(true)]), client: mac)
        #expect(alone.result == .dictionary(reference))
        let withAttributes = await engine.copyMatching(
            F.query(["acct": .string("alice"), "r_Ref": .bool(true), "r_Attributes": .bool(true)]),
            client: mac
        )
        #expect(withAttributes.result?.dictionaryValue?["v_Ref"] == .dictionary(reference))
        let byPersistent = await engine.copyMatching(["v_PersistentRef": .data(persistent), "r_Data": .bool(true)], client: mac)
        #expect(byPersistent.result == .data(Data("s3cret-alice".utf8)))
        _ = await engine.add(F.password("bob"), client: F.one)
        let onPhone = await engine.copyMatching(F.query(["acct": .string("bob"), "r_Ref": .bool(true)]), client: F.one)
        #expect(onPhone.status == .success && onPhone.result == nil)
    }

    @Test func deleteRemovesEveryMatchInTheCallersGroupsOnly() async {
        let engine = F.engine()
        _ = await engine.add(F.password("a"), client: F.one)
        _ = await engine.add(F.password("b", ["agrp": .string(F.appOne)]), client: F.one)
        _ = await engine.add(F.password("c", ["sync": .bool(true)]), client: F.one)
        _ = await engine.add(F.password("d", ["agrp": .string(F.appTwo)]), client: F.two)
        #expect(await engine.delete(F.query(), client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(["m_Limit": .string("m_LimitAll")]), client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(F.query(["sync": .bool(true)]), client: F.one).status == .success, "synchronizable items need the sync key")
        #expect(await engine.copyMatching(F.query(), client: F.two).status == .success, "App Two's private item stays")
        #expect(await engine.delete(F.query(), client: F.one).status == .itemNotFound)
    }
}

extension SecValue {
    var array: [SecValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}
