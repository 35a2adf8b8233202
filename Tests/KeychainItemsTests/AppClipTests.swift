import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// App Clips (spec keychain.md §1.7, Apple's KeychainAppClipTests): only their own application
/// identifier as group, never synchronizable items; anything else is errSecRestrictedAPI.
@Suite struct AppClipTests {
    typealias F = Fixtures
    static let appID = "ABCDE12345.com.example.AppOne.Clip"

    static func clip(_ groups: [String] = [appID], platform: Platform = .ios) -> ClientContext {
        ClientContext(
            caller: .app(try! AppID(appID)),
            entitledGroups: groups.map { try! AccessGroup($0) },
            device: DeviceState(platform: platform, osVersion: OSVersion(17, 4)),
            deviceKeychain: "device-1",
            isAppClip: true
        )
    }

    static let item: [String: SecValue] = ["class": .string("genp"), "svce": .string("AppClipTestService"), "v_Data": .data(Data("password".utf8))]
    static let query: [String: SecValue] = ["class": .string("genp"), "svce": .string("AppClipTestService")]

    @Test func aClipWithItsOwnGroupWorksAsAnyApp() async {
        let engine = F.engine()
        let clip = Self.clip()
        #expect(await engine.add(Self.item, client: clip).status == .success)
        #expect(await engine.copyMatching(Self.query, client: clip).status == .success)
        let moved = await engine.update(
            Self.query,
            attributesToUpdate: ["v_Data": .data(Data("different".utf8)), "svce": .string("DifferentAppClipTestService")],
            client: clip
        )
        #expect(moved.status == .success)
        #expect(
            await engine.copyMatching(["class": .string("genp"), "svce": .string("DifferentAppClipTestService")], client: clip).status == .success
        )
        var explicit = Self.item
        explicit["agrp"] = .string(Self.appID)
        explicit["acct"] = .string("explicit")
        #expect(await engine.add(explicit, client: clip).status == .success, "testAppClipCanPassAppIDAccessGroup")
        #expect(await engine.delete(["class": .string("genp"), "agrp": .string(Self.appID)], client: clip).status == .success)
    }

    @Test func aClipWithOtherGroupsIsRefusedEverything() async {
        let engine = F.engine()
        let clip = Self.clip([F.shared, Self.appID])
        #expect(await engine.add(Self.item, client: clip).status == .restrictedAPI)
        #expect(await engine.copyMatching(Self.query.merging(["r_Attributes": .bool(true)]) { $1 }, client: clip).status == .restrictedAPI)
        #expect(await engine.update(Self.query, attributesToUpdate: ["labl": .string("x")], client: clip).status == .restrictedAPI)
        #expect(await engine.delete(Self.query, client: clip).status == .restrictedAPI)
        #expect(await engine.add(["clip": .bool(true)], client: clip).status == .param, "the internal-attribute check still comes first")
        #expect(
            await engine.add(Self.item, client: Self.clip([Self.appID, "com.apple.token"])).status == .success,
            "the token group is allowed beside it"
        )
        #expect(await engine.add(Self.item, client: F.client([F.shared, Self.appID])).status == .success, "the same groups are fine for an app")
    }

    @Test func aClipsItemsNeverSynchronize() async {
        let engine = F.engine()
        let clip = Self.clip()
        var synced = Self.item
        synced["sync"] = .bool(true)
        #expect(await engine.add(synced, client: clip).status == .restrictedAPI)
        #expect(await engine.copyMatching(synced.filter { $0.key != "v_Data" }, client: clip).status == .itemNotFound)
        #expect(await engine.add(Self.item, client: clip).status == .success)
        let update = await engine.update(
            Self.query,
            attributesToUpdate: ["v_Data": .data(Data("different".utf8)), "sync": .bool(true)],
            client: clip
        )
        #expect(update.status == .restrictedAPI)
        let foreign = await engine.update(Self.query, attributesToUpdate: ["agrp": .string("someotheraccessgroup")], client: clip)
        #expect(foreign.status == .missingEntitlement, "testAppClipUpdateNoAgrpAllowed")
    }
}
