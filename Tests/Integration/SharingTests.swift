import AppIdentifiers
import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing

/// Seed 000's sharing, end to end: real keychaind and device processes, apps verified at install.
@Suite(.serialized) struct SharingTests {
    typealias W = IntegrationWorlds

    static let token: [String: SecValue] = [
        "class": .string("genp"), "svce": .string("token"), "acct": .string("alice"), "v_Data": .data(Data("t0ken".utf8)),
    ]

    @Test func appsShareThroughKeychainAndAppGroupsAndNobodyElseSees() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            // App One adds without a group: the first of its groups, the shared keychain group.
            let added = try lab.call(.add, on: W.phone, as: "com.example.AppOne", Self.token.merging(["r_Attributes": .bool(true)]) { $1 })
            #expect(added.status == 0)
            #expect(added.result?.dictionaryEntries?["agrp"] == .string("ABCDE12345.com.example.SharedItems"))
            #expect(
                try lab.status(
                    .add,
                    on: W.phone,
                    as: "com.example.AppOne",
                    ["class": .string("genp"), "acct": .string("suite"), "agrp": .string("group.com.example.AppSuite")]
                ) == 0
            )
            #expect(
                try lab.status(
                    .add,
                    on: W.phone,
                    as: "com.example.AppOne",
                    ["class": .string("genp"), "acct": .string("private"), "agrp": .string("ABCDE12345.com.example.AppOne")]
                ) == 0
            )

            let read = try lab.call(
                .copyMatching,
                on: W.phone,
                as: "com.example.AppTwo",
                ["class": .string("genp"), "svce": .string("token"), "r_Data": .bool(true)]
            )
            #expect(read.status == 0)
            #expect(read.result == .data(Data("t0ken".utf8)))
            #expect(
                try lab.status(.copyMatching, on: W.phone, as: "com.example.AppTwo", ["class": .string("genp"), "acct": .string("private")]) == -25300
            )
            #expect(
                try lab.status(.copyMatching, on: W.phone, as: "com.example.AppOne.Suite", ["class": .string("genp"), "acct": .string("suite")]) == 0
            )
            #expect(
                try lab.status(.copyMatching, on: W.phone, as: "com.example.AppOne.Suite", ["class": .string("genp"), "acct": .string("alice")])
                    == -25300
            )

            // The other team: its "com.example.SharedItems" carries its own prefix, so it is another group.
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.other.Snooper", ["class": .string("genp")]) == -25300)
            let named = try lab.call(
                .copyMatching,
                on: W.phone,
                as: "com.other.Snooper",
                ["class": .string("genp"), "agrp": .string("ABCDE12345.com.example.SharedItems")]
            )
            #expect(named.status == -34018)
            #expect(named.name == "errSecMissingEntitlement")
            #expect(
                try lab.status(
                    .add,
                    on: W.phone,
                    as: "com.other.Snooper",
                    Self.token.merging(["agrp": .string("ABCDE12345.com.example.SharedItems")]) { $1 }
                ) == -34018
            )
        }
    }

    @Test func anUpdateUnderAnotherPrefixNoLongerSeesEarlierItems() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let note: [String: SecValue] = ["class": .string("genp"), "acct": .string("notes"), "r_Attributes": .bool(true)]
            let added = try lab.call(.add, on: W.phone, as: "com.example.Legacy", note)
            #expect(added.result?.dictionaryEntries?["agrp"] == .string("Q7LEGACY42.com.example.Legacy"))

            let device = try DeviceClient(state: lab.state, device: W.phone)
            let updated = try device.send(DeviceRequest(.installUpdate, app: "com.example.Legacy"))
            #expect(updated.error == nil)
            #expect(updated.app?.appID?.rawValue == "ABCDE12345.com.example.Legacy")
            #expect(updated.app?.accessGroups.map(\.rawValue) == ["ABCDE12345.com.example.Legacy"])

            // Seed 004: the item is still stored, in a group the app no longer belongs to.
            let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("notes")]
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.example.Legacy", query) == -25300)
            let named = query.merging(["agrp": .string("Q7LEGACY42.com.example.Legacy")]) { $1 }
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.example.Legacy", named) == -34018)

            // An update the device refuses leaves the installed version as it was.
            let refused = try device.send(DeviceRequest(.installUpdate, app: "com.example.AppTwo"))
            #expect(refused.error?.contains("entitlement-not-allowed") == true, "\(refused)")
            let appTwo = try device.send(DeviceRequest(.info, app: "com.example.AppTwo"))
            #expect(appTwo.app?.accessGroups.map(\.rawValue) == ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppTwo"])
            let none = try device.send(DeviceRequest(.installUpdate, app: "com.example.AppOne"))
            #expect(none.error?.contains("declares no update") == true)
        }
    }

    @Test func aLockedDeviceKeepsItsItemsClosed() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let whenUnlocked: [String: SecValue] = ["class": .string("genp"), "acct": .string("ak"), "pdmn": .string("ak")]
            let afterFirstUnlock: [String: SecValue] = ["class": .string("genp"), "acct": .string("ck"), "pdmn": .string("ck")]
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", whenUnlocked) == 0)
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", afterFirstUnlock) == 0)
            let phone = try DeviceClient(state: lab.state, device: W.phone)
            let read = { (query: [String: SecValue]) throws -> Int32? in
                try lab.status(.copyMatching, on: W.phone, as: "com.example.AppOne", query.filter { $0.key != "pdmn" })
            }

            #expect(try phone.send(DeviceRequest(.lock)).device?.isLocked == true)
            #expect(try read(whenUnlocked) == -25308)
            #expect(try read(afterFirstUnlock) == 0)
            #expect(try phone.send(DeviceRequest(.reboot)).device?.isLocked == true)
            #expect(try read(afterFirstUnlock) == -25308, "closed until the first unlock")
            #expect(try phone.send(DeviceRequest(.unlock)).device?.isLocked == false)
            #expect(try read(whenUnlocked) == 0)
            #expect(try read(afterFirstUnlock) == 0)

            // The old iPad has no passcode: there is nothing to lock, and the device says so.
            let pad = try DeviceClient(state: lab.state, device: W.oldPad)
            let refused = try pad.send(DeviceRequest(.lock))
            #expect(refused.device == nil && refused.error?.contains("cannot lock") == true, "\(refused)")
            #expect(try pad.send(DeviceRequest(.status)).device?.isLocked == false)
        }
    }

    @Test func theDevicesVersionDecidesTheForeignGroupStatus() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let query: [String: SecValue] = ["class": .string("genp"), "agrp": .string("ABCDE12345.com.example.SharedItems")]
            let fromOldPad = try lab.status(.copyMatching, on: W.oldPad, as: "com.other.Snooper", query)
            #expect(fromOldPad == -25300, "iOS 12: nothing matches")
            let fromPhone = try lab.status(.copyMatching, on: W.phone, as: "com.other.Snooper", query)
            #expect(fromPhone == -34018, "iOS 13 and later: refused")
        }
    }

    @Test func eachDeviceHasItsOwnKeychainAndSynchronizableItemsReachTheAccountsDevices() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", Self.token) == 0)
            #expect(try lab.status(.copyMatching, on: W.oldPad, as: "com.example.AppOne", ["class": .string("genp")]) == -25300)
            var synced = Self.token
            synced["sync"] = .bool(true)
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", synced) == 0)
            // The old pad has its copy once iCloud Keychain carried it (docs/icloud-keychain.md).
            try lab.syncWait()
            #expect(try lab.status(.copyMatching, on: W.oldPad, as: "com.example.AppOne", ["class": .string("genp"), "sync": .bool(true)]) == 0)
        }
    }

    @Test func macOSDevicesStripMatchKeysAndAddTheTokenGroup() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", Self.token) == 0)
            #expect(try lab.status(.delete, on: W.mac, as: "com.example.MacApp", ["class": .string("genp"), "m_Limit": .string("m_LimitAll")]) == 0)
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", Self.token) == 0)
            #expect(
                try lab.status(.delete, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "m_Limit": .string("m_LimitAll")]) == -50
            )
            let info = try DeviceClient(state: lab.state, device: W.mac).send(DeviceRequest(.info, app: "com.example.MacApp"))
            #expect(
                info.app?.accessGroups.map(\.rawValue) == ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.MacApp", "com.apple.token"]
            )
        }
    }

    /// si-10-find-internet: the attributes CopyMatching returned find the item again, dates
    /// included (they cross the app's socket and the call channel without losing a bit).
    @Test func returnedAttributesFindTheItemAgain() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let item: [String: SecValue] = [
                "class": .string("inet"), "srvr": .string("members.spamcop.net"), "acct": .string("smith"), "port": .integer(80),
                "ptcl": .string("http"), "atyp": .string("dflt"), "v_Data": .data(Data("test".utf8)),
            ]
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", item) == 0)
            var query = item
            query["v_Data"] = nil
            query["r_Attributes"] = .bool(true)
            let found = try lab.call(.copyMatching, on: W.phone, as: "com.example.AppOne", query)
            guard case .dictionary(var attributes)? = found.result else {
                Issue.record("no attributes: \(found)")
                return
            }
            #expect(attributes["cdat"] != nil && attributes["mdat"] != nil)
            attributes["class"] = .string("inet")
            attributes["r_Data"] = .bool(true)
            let again = try lab.call(.copyMatching, on: W.phone, as: "com.example.AppOne", attributes)
            #expect(again.status == 0)
            #expect(again.result == .data(Data("test".utf8)))
        }
    }

    /// KeychainAppClipTests: an App Clip with only its own group works; one that claims another
    /// group is refused every call, and no App Clip may make a synchronizable item.
    @Test func appClipsKeepToTheirOwnGroup() async throws {
        try await withLab(W.appClips) { (lab: RunningLab) async throws in
            let item: [String: SecValue] = [
                "class": .string("genp"), "svce": .string("AppClipTestService"), "v_Data": .data(Data("password".utf8)),
            ]
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne.Clip", item) == 0)
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.example.AppOne.Clip", ["class": .string("genp")]) == 0)
            var synced = item
            synced["sync"] = .bool(true)
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne.Clip", synced) == -34020)
            #expect(try lab.status(.add, on: W.phone, as: "com.example.Greedy.Clip", item) == -34020)
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.example.Greedy.Clip", ["class": .string("genp")]) == -34020)
        }
    }
}
