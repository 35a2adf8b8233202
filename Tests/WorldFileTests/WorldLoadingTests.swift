import AppIdentity
import Foundation
import Testing
import UserAnswers
import WebCredentialAPI
import WorldFile

@Suite struct WorldLoadingTests {
    static let demo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Tools/worlds/demo.yaml")

    @Test func loadsTheDemoWorld() throws {
        let world = try World.load(contentsOf: Self.demo)
        #expect(world.name == "demo")
        #expect(world.teams.map(\.id.rawValue).contains("ABCDE12345"))
        let appOne = try #require(world.app(try BundleID("com.example.AppOne")))
        #expect(appOne.entitlements.keychainAccessGroups == ["ABCDE12345.com.example.SharedItems"])
        #expect(appOne.entitlements.applicationGroups == ["group.com.example.AppSuite"])
        let family = try #require(world.app(try BundleID("com.useyourloaf.amazingApp2")))
        #expect(family.appID.rawValue == "ABC1234DEF.com.useyourloaf.amazingApp2")
        #expect(family.entitlements.keychainAccessGroups == ["ABC1234DEF.amazingAppFamily"])
        let accounts = world.devices.compactMap(\.iCloudAccount)
        #expect(accounts.count == 4 && Set(accounts).count == 2, "three devices of one account (a Mac among them) and one of another")
        #expect(world.websites.first?.hosts.map(\.host) == ["example.com", "www.example.com", "support.example.com"])
    }

    /// A Mac's passcode is its user's password (any text on one line); an iPhone's is digits.
    @Test func aMacsPasscodeIsTheUsersPassword() throws {
        let world = try World.parse(
            yaml: "devices:\n  - {id: m, platform: macos, osVersion: 14, passcode: correct horse}\n  - {id: p, osVersion: 17, passcode: \"1234\"}\n",
            file: "world.yaml"
        )
        #expect(world.devices.map(\.passcode) == ["correct horse", "1234"])
        #expect(throws: WorldError.self) {
            try World.parse(yaml: "devices:\n  - {id: p, osVersion: 17, passcode: correct horse}\n", file: "world.yaml")
        }
    }

    /// `iCloudAccounts` lists the other accounts a device may sign in to, each checked as
    /// `iCloudAccount` is; the one it starts with is not listed twice.
    @Test func aDeviceMayListOtherICloudAccounts() throws {
        let world = try World.parse(
            yaml:
                "devices:\n  - {id: p, osVersion: 17, iCloudAccount: a@example.com, iCloudAccounts: [b@example.com, a@example.com, b@example.com]}\n",
            file: "world.yaml"
        )
        #expect(world.devices.first?.otherICloudAccounts == ["b@example.com"])
        #expect(world.devices.first?.signInAccounts == ["a@example.com", "b@example.com"])
        let signedOut = try World.parse(yaml: "devices:\n  - {id: p, osVersion: 17, iCloudAccounts: [b@example.com]}\n", file: "world.yaml")
        #expect(signedOut.devices.first?.signInAccounts == ["b@example.com"], "a device may start signed out")
        #expect(throws: WorldError.self) {
            try World.parse(yaml: "devices:\n  - {id: p, osVersion: 17, iCloudAccounts: [../escape]}\n", file: "world.yaml")
        }
    }

    @Test func loadsTheWrappersWorld() throws {
        let world = try World.load(contentsOf: Self.demo.deletingLastPathComponent().appending(path: "wrappers.yaml"))
        let host = try #require(world.app(try BundleID("com.kishikawakatsumi.KeychainAccess.TestHost")))
        #expect(host.entitlements.keychainAccessGroups == ["27AEDK3C9F.com.kishikawakatsumi.KeychainAccess.TestHost", "27AEDK3C9F.shared"])
        #expect(world.devices.allSatisfy { $0.apps.count == Set(world.apps.map(\.bundleID)).count })
        #expect(world.devices.map(\.platform) == [.ios, .macos] && world.apps.filter(\.isMacBuild).count == 4, "each host has a Mac build")
    }

    /// `profile: grants:` adds to what the portal allows, build variables expanded; a group list may
    /// hold a number (securityd ignores such a list, which a world may mean to show).
    @Test func profilesGrantWhatTheWorldSays() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps:
                  - bundleID: com.example.a
                    team: ABCDE12345
                    entitlements:
                      keychain-access-groups: [$(AppIdentifierPrefix)shared, 42]
                    profile:
                      grants:
                        com.apple.private.keychain.deny: true
                        com.apple.developer.associated-application-identifier: [$(AppIdentifierPrefix)other]
                """,
            file: "grants.yaml"
        )
        let app = try #require(world.apps.first)
        #expect(app.profile.grants[EntitlementKey.keychainDeny] == PlistValue.bool(true))
        #expect(app.profile.grants[EntitlementKey.associatedApplicationIdentifier] == PlistValue.array([.string("ABCDE12345.other")]))
        #expect(app.entitlements[EntitlementKey.keychainAccessGroups] == PlistValue.array([.string("ABCDE12345.shared"), .integer(42)]))
        #expect(app.entitlements.keychainAccessGroups == nil)
        #expect(throws: WorldError.self) {
            try World.parse(yaml: "teams: [{id: ABCDE12345}]\napps: [{bundleID: a.b, team: ABCDE12345, profile: {grant: {}}}]", file: "typo.yaml")
        }
    }

    @Test func xcodeAddsTheIdentifiersItSigns() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps:
                  - {bundleID: com.example.a, team: ABCDE12345}
                  - {bundleID: com.example.b, team: ABCDE12345, platform: macos, profile: distribution}
                  - bundleID: com.example.c
                    team: ABCDE12345
                    entitlements: {get-task-allow: false}
                """,
            file: "w.yaml"
        )
        let signed = world.apps.map(\.signedEntitlements)
        #expect(signed[0]["application-identifier"] == .string("ABCDE12345.com.example.a"))
        #expect(signed[0]["com.apple.developer.team-identifier"] == .string("ABCDE12345"))
        #expect(signed[0]["get-task-allow"] == .bool(true))
        #expect(signed[1]["com.apple.application-identifier"] == .string("ABCDE12345.com.example.b"))
        #expect(signed[1]["application-identifier"] == nil)
        #expect(signed[1]["get-task-allow"] == .bool(false))
        #expect(signed[2]["get-task-allow"] == .bool(false))
    }

    /// The world's warning and the installer apply one rule: an app group its team did not
    /// register is refused only where a profile grants groups; a Mac app without a profile
    /// installs with it (issue 25).
    @Test func unregisteredGroupsMatterOnlyWithAProfile() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345, appGroups: [group.registered]}]
                apps:
                  - {bundleID: com.example.a, team: ABCDE12345, entitlements: {com.apple.security.application-groups: [group.other]}}
                  - bundleID: com.example.mac
                    team: ABCDE12345
                    platform: macos
                    profile: none
                    entitlements: {com.apple.security.application-groups: [group.other]}
                """,
            file: "w.yaml"
        )
        #expect(world.unregisteredAppGroups(of: world.apps[0]).map(\.group) == ["group.other"])
        #expect(world.unregisteredAppGroups(of: world.apps[1]).isEmpty)
    }

    @Test func anUpdateIsSignedAgainUnderItsOwnPrefix() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps:
                  - bundleID: com.example.notes
                    team: ABCDE12345
                    bundleSeedID: Q7LEGACY42
                    entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)notes]}
                    update: {}
                  - bundleID: com.example.other
                    team: ABCDE12345
                    update: {bundleSeedID: Z9Z9Z9Z9Z9, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)x]}}
                """,
            file: "w.yaml"
        )
        #expect(world.apps[0].appID.rawValue == "Q7LEGACY42.com.example.notes")
        let notes = try #require(world.apps[0].updated)
        #expect(notes.isUpdate && notes.update == nil)
        #expect(notes.appID.rawValue == "ABCDE12345.com.example.notes")
        #expect(notes.entitlements.keychainAccessGroups == ["ABCDE12345.notes"], "the app's entitlements, expanded with the new prefix")
        let other = try #require(world.apps[1].updated)
        #expect(other.appID.rawValue == "Z9Z9Z9Z9Z9.com.example.other")
        #expect(other.entitlements.keychainAccessGroups == ["Z9Z9Z9Z9Z9.x"])
    }

    @Test func fillsDefaults() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps: [{bundleID: com.example.a, team: ABCDE12345}, {bundleID: com.example.b, team: ABCDE12345, profile: distribution}]
                devices: [{id: phone, osVersion: 17}, {id: mac, platform: macos, osVersion: "14.5"}]
                """,
            file: "w.yaml"
        )
        #expect(world.apps[0].name == "a")
        #expect(world.apps[0].profile.devices == ["phone", "mac"])
        #expect(world.apps[1].profile.devices == nil)
        let phone = try #require(world.device("phone"))
        #expect(phone.udid.count == 40 && phone.udid.allSatisfy(\.isHexDigit))
        #expect(phone.udid == (try World.parse(yaml: "devices: [{id: phone, osVersion: 1}]", file: "x").devices[0].udid), "derived UDIDs are stable")
        #expect(phone.osVersion == OSVersion(17))
        #expect(world.device("mac")?.platform == .macos)
    }

    /// One bundle ID with an iOS and a Mac build (a multiplatform target): each device installs
    /// its own platform's, and a Mac with no Mac build installs the iOS one.
    @Test func oneAppMayHaveABuildPerPlatform() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps:
                  - {bundleID: com.example.notes, team: ABCDE12345, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)phone]}}
                  - {bundleID: com.example.notes, team: ABCDE12345, platform: macos, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)desk]}}
                  - {bundleID: com.example.ipad, team: ABCDE12345}
                devices:
                  - {id: phone, osVersion: 17, apps: [com.example.notes]}
                  - {id: mac, platform: macos, osVersion: "14.5", apps: [com.example.notes, com.example.ipad]}
                """,
            file: "w.yaml"
        )
        let notes = try BundleID("com.example.notes")
        #expect(world.app(notes, on: .ios)?.entitlements.keychainAccessGroups == ["ABCDE12345.phone"])
        #expect(world.app(notes, on: .macos)?.entitlements.keychainAccessGroups == ["ABCDE12345.desk"])
        #expect(world.apps.map(\.isMacBuild) == [false, true, false])
        #expect(world.app(try BundleID("com.example.ipad"), on: .macos)?.platform == .ios, "an Apple silicon Mac runs the iPhone build")
        #expect(world.app(try BundleID("com.example.ipad"), on: .ios)?.platform == .ios)
    }

    @Test func profilesMayNameDevicesByUDID() throws {
        let world = try World.parse(
            yaml: """
                teams: [{id: ABCDE12345}]
                apps: [{bundleID: a.b, team: ABCDE12345, profile: {devices: [00008030-001a2b3c4d5e802e, pad]}}]
                devices: [{id: phone, udid: 00008030-001A2B3C4D5E802E, osVersion: 17}, {id: pad, osVersion: 12}]
                """,
            file: "w.yaml"
        )
        #expect(world.apps[0].profile.devices == ["phone", "pad"])
    }

    @Test func writesAssociationFilesAsCompactJSON() throws {
        let world = try World.parse(
            yaml: """
                websites:
                  - domain: Example.COM
                    aasa:
                      signed: true
                      content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}
                """,
            file: "w.yaml"
        )
        let file = try #require(world.websites.first?.aasa)
        #expect(world.websites.first?.domain == "example.com")
        #expect(file.signed)
        #expect(String(decoding: file.json, as: UTF8.self) == #"{"webcredentials":{"apps":["D3KQX62K1A.com.example.DemoApp"]}}"#)
    }
}

/// The keys of shared web credentials: the scripted user, AutoFill, website accounts, the browser.
@Suite struct WorldWebCredentialKeysTests {
    static let base = """
        teams: [{id: ABCDE12345}]
        apps: [{bundleID: com.example.a, team: ABCDE12345}]
        """

    @Test func devicesHaveAScriptedUserAndAutoFill() throws {
        let world = try World.parse(
            yaml: Self.base + """

                devices:
                  - {id: phone, osVersion: "17.4", apps: [com.example.a], passwordAutoFill: false,
                     user: {answers: [decline, "pick 2", "wait 250ms then approve"], default: decline}}
                  - {id: pad, osVersion: "12.5"}
                """,
            file: "w.yaml"
        )
        let phone = try #require(world.device("phone"))
        #expect(!phone.passwordAutoFill)
        #expect(phone.user.answers.map(\.description) == ["decline", "pick 2", "wait 250ms then approve"])
        #expect(phone.user.answers.last?.delayMilliseconds == 250)
        #expect(phone.user.defaultAnswer.description == "decline")
        let pad = try #require(world.device("pad"))
        #expect(pad.passwordAutoFill && pad.user.answers.isEmpty && pad.user.defaultAnswer.description == "approve")
    }

    @Test func aBadAnswerIsRefusedWithItsPlace() {
        #expect(throws: WorldError.self) {
            try World.parse(yaml: Self.base + "\ndevices: [{id: p, osVersion: '17.4', user: {answers: [maybe]}}]\n", file: "w.yaml")
        }
        do {
            _ = try World.parse(yaml: Self.base + "\ndevices: [{id: p, osVersion: '17.4', user: {answers: ['pick 0']}}]\n", file: "w.yaml")
            Issue.record("pick 0 was accepted")
        } catch {
            #expect(error.description.contains("'pick 0' is not an answer"), "\(error)")
        }
    }

    @Test func worldsWithWebsitesGetTheBrowserOnIOSDevices() throws {
        let world = try World.parse(
            yaml: Self.base + """

                devices:
                  - {id: phone, osVersion: "17.4"}
                  - {id: kiosk, osVersion: "17.4", browser: false}
                websites:
                  - {domain: example.com, accounts: [{username: alice, password: "Corr3ct-Horse"}]}
                """,
            file: "w.yaml"
        )
        let browser = try #require(world.app(World.browserBundleID))
        #expect(browser.entitlements.keychainAccessGroups == ["com.apple.cfnetwork"])
        #expect(world.team(browser.team)?.isPlatform == true)
        #expect(world.device("phone")?.apps.contains(World.browserBundleID) == true)
        #expect(world.device("kiosk")?.apps.contains(World.browserBundleID) == false)
        #expect(world.websites.first?.accounts.map(\.username) == ["alice"])
        let plain = try World.parse(yaml: Self.base + "\ndevices: [{id: phone, osVersion: '17.4'}]\n", file: "w.yaml")
        #expect(plain.app(World.browserBundleID) == nil, "no websites, no browser")
    }

    @Test func developerModeAndMDMDecideModeEntries() throws {
        let world = try World.parse(
            yaml: Self.base + """

                devices:
                  - {id: managed, osVersion: "17.4", developerMode: false, mdm: {domains: [Example.com], directDownloads: true}}
                  - {id: plain, osVersion: "17.4"}
                """,
            file: "w.yaml"
        )
        #expect(world.device("managed")?.developerMode == false)
        #expect(world.device("managed")?.mdm == WorldFile.Device.MDM(domains: ["example.com"], directDownloads: true))
        #expect(world.device("plain")?.developerMode == true && world.device("plain")?.mdm == nil)
        #expect(throws: WorldError.self) {
            try World.parse(yaml: Self.base + "\ndevices: [{id: p, osVersion: '17.4', mdm: {domains: ['not a domain']}}]\n", file: "w.yaml")
        }
    }

    @Test func aBadAccountIsRefused() {
        #expect(throws: WorldError.self) {
            try World.parse(
                yaml: Self.base + "\nwebsites: [{domain: example.com, accounts: [{username: 'Has Space', password: x}]}]\n",
                file: "w.yaml"
            )
        }
    }
}
