import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes
import Testing

/// Synchronizable items, tombstones and the locked device (spec keychain.md §3, §4).
@Suite struct SyncAndLockTests {
    typealias F = Fixtures

    @Test func synchronizableItemsNeedTheSyncKey() async {
        let engine = F.engine()
        _ = await engine.add(F.password(["sync": .bool(true)]), client: F.one)
        #expect(await engine.copyMatching(F.query(), client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(F.query(["sync": .bool(true)]), client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(["sync": .string("syna")]), client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(["sync": .integer(0)]), client: F.one).status == .itemNotFound)
    }

    @Test func eachDeviceKeepsItsOwnCopyBesideTheLocalItem() async {
        let engine = F.engine()
        #expect(await engine.add(F.password(["sync": .bool(true)]), client: F.one).status == .success)
        #expect(await engine.add(F.password(), client: F.one).status == .success, "sync is part of the primary key")
        let any = F.query(["sync": .string("syna"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true)])
        #expect(await engine.copyMatching(any, client: F.one).result?.array?.count == 2)
        let otherDevice = F.client([F.shared, F.appOne], device: "device-2")
        #expect(
            await engine.copyMatching(F.query(["sync": .bool(true)]), client: otherDevice).status == .itemNotFound,
            "another device sees the item only once its sync engine applies the cloud's copy"
        )
    }

    @Test func deletedSynchronizableItemsLeaveAHiddenTombstone() async {
        let engine = F.engine()
        _ = await engine.add(F.password(["sync": .bool(true)]), client: F.one)
        #expect(await engine.delete(F.query(["sync": .bool(true)]), client: F.one).status == .success)
        #expect(await engine.copyMatching(F.query(["sync": .bool(true)]), client: F.one).status == .itemNotFound)
        #expect(await engine.copyMatching(F.query(["sync": .bool(true), "tomb": .integer(1)]), client: F.one).status == .success)
        #expect(await engine.add(F.password(["sync": .bool(true)]), client: F.one).status == .success, "a tombstone gives way to a new add")
    }

    @Test func aLockedDeviceRefusesClassAItems() async {
        let engine = F.engine()
        let locked = F.client([F.shared, F.appOne], locked: true)
        #expect(await engine.add(F.password("a"), client: F.one).status == .success)
        #expect(await engine.add(F.password("b", ["pdmn": .string("dk")]), client: F.one).status == .success)
        #expect(await engine.add(F.password("c"), client: locked).status == .interactionNotAllowed)
        #expect(await engine.add(F.password("a"), client: locked).status == .interactionNotAllowed, "even a duplicate")
        #expect(await engine.add(F.password("d", ["pdmn": .string("ck")]), client: locked).status == .success)
        #expect(await engine.copyMatching(F.query(["acct": .string("a"), "r_Data": .bool(true)]), client: locked).status == .interactionNotAllowed)
        #expect(await engine.copyMatching(F.query(["acct": .string("b"), "r_Data": .bool(true)]), client: locked).status == .success)
    }

    @Test func passcodeOnlyItemsNeedAPasscode() async {
        let engine = F.engine()
        let noPasscode = F.client([F.appOne], passcode: false)
        #expect(await engine.add(F.password(["pdmn": .string("akpu")]), client: noPasscode).status == .authFailed)
        #expect(await engine.add(F.password(["pdmn": .string("akpu")]), client: F.one).status == .success)
    }
}
