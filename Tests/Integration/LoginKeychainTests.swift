import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A Mac's two keychains through real processes: a Mac app's items go to the login keychain unless
/// it asks for data protection; an iOS app on the Mac has the data-protection keychain only; the
/// login keychain's items are for the apps on their access control list.
@Suite(.serialized) struct LoginKeychainTests {
    typealias W = IntegrationWorlds

    static let item: [String: SecValue] = [
        "class": .string("genp"), "svce": .string("mail"), "acct": .string("alice"), "labl": .string("Mail account"),
        "v_Data": .data(Data("pw".utf8)),
    ]

    @Test func aMacAppsItemsGoToTheLoginKeychain() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            var item = Self.item
            item["agrp"] = .string("ABCDE12345.com.example.SharedItems")
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", item) == 0)
            let found = try lab.call(.copyMatching, on: W.mac, as: "com.example.MacApp", ["class": .string("genp"), "r_Attributes": .bool(true)])
            let attributes = try #require(found.result?.dictionaryValue, "\(found.reason ?? "")")
            #expect(attributes["labl"] == .string("Mail account"))
            #expect(attributes["agrp"] == nil, "the login keychain has no access groups")
            let dataProtection: [String: SecValue] = ["class": .string("genp"), "nleg": .bool(true)]
            #expect(try lab.status(.copyMatching, on: W.mac, as: "com.example.MacApp", dataProtection) == -25300)
            let iOSApp = try lab.status(.copyMatching, on: W.mac, as: "com.example.AppOne", ["class": .string("genp")])
            #expect(iOSApp == -25300, "an iOS app on a Mac sees the data-protection keychain only, though it shares the group")
        }
    }

    @Test func anotherAppMayNotUseTheSecret() async throws {
        try await withLab(W.platformBinaries) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", Self.item) == 0)
            let secret: [String: SecValue] = ["class": .string("genp"), "svce": .string("mail"), "r_Data": .bool(true)]
            let own = try lab.call(.copyMatching, on: W.mac, as: "com.example.MacApp", secret)
            #expect(own.result == .data(Data("pw".utf8)))
            let other = try lab.call(.copyMatching, on: W.mac, as: "com.example.Greedy", secret)
            #expect(other.status == -25308)
            #expect(other.reason?.contains("not on the access control list of “Mail account”") == true, "\(other.reason ?? "")")
            let deleted = try lab.status(.delete, on: W.mac, as: "com.example.Greedy", ["class": .string("genp"), "svce": .string("mail")])
            #expect(deleted == -25308)
            #expect(try lab.status(.copyMatching, on: W.mac, as: "com.example.MacApp", secret) == 0, "still there")
        }
    }
}
