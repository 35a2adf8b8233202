import DeviceProtocol
import Foundation
import KeychainTypes
import Testing

/// One app with a build per platform, as Xcode signs a multiplatform target: the iPhone installs
/// the iOS build and the Mac the Mac build, each with its own entitlements, so each device's
/// keychain sees the groups of its own build only.
@Suite(.serialized) struct MultiplatformAppTests {
    static let world = """
        name: multiplatform
        teams: [{id: ABCDE12345, name: Example Inc.}]
        apps:
          - bundleID: com.example.Notes
            team: ABCDE12345
            program: keychainlab-app
            entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)com.example.phone]}
          - bundleID: com.example.Notes
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)com.example.desk]}
        devices:
          - {id: phone, osVersion: "17.4", apps: [com.example.Notes]}
          - {id: mac, platform: macos, osVersion: "14.5", apps: [com.example.Notes]}
        """

    @Test func eachDeviceRunsItsOwnPlatformsBuild() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            // `nleg`: the Mac build asks for the data-protection keychain, as an iOS app always has it.
            let item: [String: SecValue] = ["class": .string("genp"), "acct": .string("alice"), "nleg": .bool(true), "r_Attributes": .bool(true)]
            let onPhone = try lab.call(.add, on: "phone", as: "com.example.Notes", item)
            #expect(onPhone.status == 0, "\(onPhone)")
            #expect(onPhone.result?.dictionaryEntries?["agrp"] == .string("ABCDE12345.com.example.phone"))
            let onMac = try lab.call(.add, on: "mac", as: "com.example.Notes", item)
            #expect(onMac.status == 0, "\(onMac)")
            #expect(onMac.result?.dictionaryEntries?["agrp"] == .string("ABCDE12345.com.example.desk"))

            // Each build's group is its own: the other platform's is -34018.
            let foreign: [String: SecValue] = ["class": .string("genp"), "acct": .string("bob"), "nleg": .bool(true)]
            let phoneGroup = foreign.merging(["agrp": .string("ABCDE12345.com.example.phone")]) { $1 }
            #expect(try lab.status(.add, on: "mac", as: "com.example.Notes", phoneGroup) == -34018)
        }
    }
}
