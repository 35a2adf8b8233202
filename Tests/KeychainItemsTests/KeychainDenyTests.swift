import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// `com.apple.private.keychain.deny` (spec keychain.md §1.7): every call is errSecNotAvailable,
/// before anything else is checked.
@Suite struct KeychainDenyTests {
    typealias F = Fixtures

    @Test func aDeniedProcessHasNoKeychain() async {
        let engine = F.engine()
        #expect(await engine.add(F.password("alice"), client: F.one).status == .success)
        let denied = ClientContext(
            caller: .app(try! AppID(F.appOne)),
            entitledGroups: [try! AccessGroup(F.shared), try! AccessGroup(F.appOne)],
            device: DeviceState(platform: .ios, osVersion: OSVersion(17, 4)),
            deviceKeychain: "device-1",
            isDenied: true
        )
        #expect(await engine.add(F.password("bob"), client: denied).status == .notAvailable)
        #expect(await engine.copyMatching(F.query(), client: denied).status == .notAvailable)
        #expect(await engine.update(F.query(), attributesToUpdate: ["labl": .string("x")], client: denied).status == .notAvailable)
        #expect(await engine.delete(F.query(), client: denied).status == .notAvailable)
        #expect(await engine.add(["clip": .bool(true)], client: denied).status == .notAvailable, "before the internal-attribute check")
        #expect(await engine.copyMatching(F.query(), client: F.one).status == .success, "the items are untouched")
    }
}
