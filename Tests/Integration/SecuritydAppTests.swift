import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// The apps securityd's own tests use, declared with `profile: grants:` and run on real devices.
@Suite(.serialized) struct SecuritydAppTests {
    typealias W = IntegrationWorlds

    static func groups(_ lab: RunningLab, _ app: String, on device: String = W.phone) throws -> [String] {
        let response = try DeviceClient(state: lab.state, device: device).send(DeviceRequest(.run(arguments: ["groups"]), app: app))
        return (response.output ?? "").split(separator: "\n").map(String.init)
    }

    /// A password item; `dataProtection` adds kSecUseDataProtectionKeychain, without which a Mac
    /// app's items go to the login keychain, where access groups do not apply.
    static func password(_ account: String, group: String? = nil, dataProtection: Bool = false) -> [String: SecValue] {
        var query: [String: SecValue] = [
            "class": .string("genp"), "svce": .string("securityd"), "acct": .string(account), "v_Data": .data(Data("pw".utf8)),
        ]
        if let group { query["agrp"] = .string(group) }
        if dataProtection { query["nleg"] = .bool(true) }
        return query
    }

    /// An associated application identifier comes after keychain-access-groups and before the app
    /// ID (securityd's order, test `testEntitlementsAssociatedAppID`), and is a group like the others;
    /// without the profile's grant the app is refused at install.
    @Test func associatedApplicationIdentifiersAreGroups() async throws {
        try await withLab(W.securitydApps) { (lab: RunningLab) async throws in
            let app = "com.example.Associated"
            #expect(
                try Self.groups(lab, app) == ["ABCDE12345.com.example.Shared", "com.apple.security.test.assoc", "ABCDE12345.com.example.Associated"]
            )
            #expect(try lab.status(.add, on: W.phone, as: app, Self.password("a", group: "com.apple.security.test.assoc")) == 0)
            let found = try lab.call(
                .copyMatching,
                on: W.phone,
                as: app,
                ["class": .string("genp"), "acct": .string("a"), "r_Attributes": .bool(true)]
            )
            #expect(found.result?.dictionaryValue?["agrp"] == .string("com.apple.security.test.assoc"))
            let phone = try #require(lab.device(W.phone))
            let refused = try #require(phone.refused["com.example.Ungranted"])
            #expect(refused.contains { $0.hasPrefix("entitlement-not-allowed") && $0.contains("associated-application-identifier") }, "\(refused)")
        }
    }

    /// A keychain-access-groups list holding a number is ignored whole: the app keeps only its app ID.
    @Test func aGroupListWithANumberIsIgnoredWhole() async throws {
        try await withLab(W.securitydApps) { (lab: RunningLab) async throws in
            let app = "com.example.Malformed"
            #expect(try Self.groups(lab, app) == ["ABCDE12345.com.example.Malformed"])
            #expect(try lab.status(.add, on: W.phone, as: app, Self.password("m", group: "ABCDE12345.com.example.Shared")) == -34018)
            #expect(try lab.status(.add, on: W.phone, as: app, Self.password("m")) == 0)
        }
    }

    /// Another team's app granted com.apple.private.keychain.deny gets errSecNotAvailable for every call.
    @Test func anotherTeamsAppDeniedTheKeychain() async throws {
        try await withLab(W.securitydApps) { (lab: RunningLab) async throws in
            let app = "com.other.Denied"
            #expect(try lab.status(.add, on: W.phone, as: app, Self.password("d")) == -25291)
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp")]) == -25291)
            #expect(try lab.status(.delete, on: W.phone, as: app, ["class": .string("genp")]) == -25291)
        }
    }

    /// `kclab bundle verify --platform` shows the list as that device holds it: a macOS device adds
    /// the token group, an iOS device leaves it out.
    @Test func bundleVerifyShowsTheListADeviceHolds() async throws {
        try await withLab(W.securitydApps) { (lab: RunningLab) async throws in
            let bundle = lab.state.builtWorld.appending(path: "apps/com.example.Associated.app").path
            let signed = ["ABCDE12345.com.example.Shared", "com.apple.security.test.assoc", "ABCDE12345.com.example.Associated"]
            for (platform, held) in [("ios", signed), ("macos", signed + ["com.apple.token"])] {
                let result = try run(kclab, ["bundle", "verify", bundle, "--trust", lab.state.builtWorld.path, "--platform", platform])
                #expect(result.status == 0, "\(result.stderr)")
                let verdict = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                #expect(verdict["accessGroups"] as? [String] == signed)
                #expect(verdict["platform"] as? String == platform)
                #expect(verdict["deviceAccessGroups"] as? [String] == held)
            }
            // --device names a world device: its platform decides (and its UDID, for development profiles).
            for (device, held) in [(W.phone, signed), (W.mac, signed + ["com.apple.token"])] {
                let result = try run(kclab, ["bundle", "verify", bundle, "--trust", lab.state.builtWorld.path, "--device", device])
                let verdict = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                #expect(verdict["deviceAccessGroups"] as? [String] == held, "\(device): \(result.stdout)")
            }
            let explained = try run(kclab, ["explain", "install", bundle, "--device", W.mac])
            #expect(explained.stdout.contains("as macos holds them: \(signed.joined(separator: ", ")), com.apple.token"), "\(explained.stdout)")
            let unknown = try run(kclab, ["bundle", "verify", bundle, "--trust", lab.state.builtWorld.path, "--platform", "watchos"])
            #expect(unknown.status == 2 || unknown.status == 64, "\(unknown.stderr)")
        }
    }

    /// `*` is every group for Keychain Access, an Apple platform binary on securityd's allow-list; any
    /// other client holding it is refused before the call runs.
    @Test func onlyAllowListedPlatformBinariesHoldEveryGroup() async throws {
        try await withLab(W.platformBinaries) { (lab: RunningLab) async throws in
            let shared = "ABCDE12345.com.example.Shared"
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", Self.password("mac", dataProtection: true)) == 0)
            let all: [String: SecValue] = [
                "class": .string("genp"), "m_Limit": .string("m_LimitAll"), "r_Attributes": .bool(true), "nleg": .bool(true),
            ]
            let found = try lab.call(.copyMatching, on: W.mac, as: "com.apple.keychainaccess", all)
            #expect(found.status == 0, "\(found.reason ?? "")")
            guard case .array(let items)? = found.result else {
                Issue.record("expected an array of attributes, got \(String(describing: found.result))")
                return
            }
            #expect(items.compactMap { $0.dictionaryValue?["agrp"]?.string } == [shared])
            #expect(try lab.status(.add, on: W.mac, as: "com.apple.keychainaccess", Self.password("ka", group: shared, dataProtection: true)) == 0)
            for app in ["com.apple.Notes", "com.example.Greedy"] {
                let refused = try lab.call(.copyMatching, on: W.mac, as: app, all)
                #expect(refused.status == -34018, "\(app)")
                #expect(refused.reason?.contains("holds the access group '*'") == true, "\(refused.reason ?? "")")
            }
        }
    }

    /// Without a profile macOS honours keychain-access-groups alone (spec keychain.md §1.1 step 2):
    /// the app ID and app groups are dropped, the token group added; an app that claims an
    /// identifier but keeps no group is securityd's "entitlement failure", every call -34018; a tool
    /// with no entitlements at all reads the token group only. iOS installs nothing without a profile.
    @Test func macAppsSignedWithoutAProfile() async throws {
        try await withLab(W.developerID) { (lab: RunningLab) async throws in
            let shared = "ABCDE12345.com.example.Shared"
            #expect(try Self.groups(lab, "com.example.DeveloperID", on: W.mac) == [shared, "com.apple.token"])
            #expect(try lab.status(.add, on: W.mac, as: "com.example.DeveloperID", Self.password("dev", dataProtection: true)) == 0)
            #expect(
                try lab.status(
                    .add,
                    on: W.mac,
                    as: "com.example.DeveloperID",
                    Self.password("g", group: "group.com.example.Suite", dataProtection: true)
                ) == -34018
            )
            #expect(
                try lab.status(
                    .add,
                    on: W.mac,
                    as: "com.example.DeveloperID",
                    Self.password("a", group: "ABCDE12345.com.example.DeveloperID", dataProtection: true)
                )
                    == -34018
            )

            #expect(try Self.groups(lab, "com.example.Tool", on: W.mac) == ["com.apple.token"])
            #expect(try lab.status(.add, on: W.mac, as: "com.example.Tool", Self.password("t", dataProtection: true)) == -34018)
            #expect(try lab.status(.copyMatching, on: W.mac, as: "com.example.Tool", ["class": .string("genp"), "nleg": .bool(true)]) == -25300)

            #expect(try Self.groups(lab, "com.example.Stripped", on: W.mac) == [])
            for operation in [SecItemCall.add, .copyMatching, .delete] {
                #expect(
                    try lab.status(operation, on: W.mac, as: "com.example.Stripped", Self.password("s", dataProtection: true)) == -34018,
                    "\(operation)"
                )
            }

            let phone = try #require(lab.device(W.phone))
            let refused = try #require(phone.refused["com.example.PhoneTool"])
            #expect(refused.contains { $0.hasPrefix("profile-required") }, "\(refused)")

            let tool = lab.state.builtWorld.appending(path: "apps/com.example.Tool.app").path
            #expect(!FileManager.default.fileExists(atPath: "\(tool)/embedded.mobileprovision"))
            let onPhone = try run(kclab, ["bundle", "verify", tool, "--trust", lab.state.builtWorld.path, "--platform", "ios"])
            #expect(onPhone.status == 1 && onPhone.stdout.contains("profile-required"), "\(onPhone.stdout)")
            // Without --platform a bundle with no profile is checked as the Mac app it can only be.
            for arguments in [["bundle", "verify", tool, "--trust", lab.state.builtWorld.path], ["explain", "install", tool, "--json"]] {
                let onMac = try run(kclab, arguments)
                #expect(onMac.status == 0, "\(arguments[0]): \(onMac.stdout)")
                let verdict = try #require(try JSONSerialization.jsonObject(with: Data(onMac.stdout.utf8)) as? [String: Any])
                #expect(verdict["accessGroups"] as? [String] == [])
                #expect(verdict["platform"] as? String == "macos")
                #expect(verdict["deviceAccessGroups"] as? [String] == ["com.apple.token"])
            }
            let explained = try run(kclab, ["explain", "install", tool, "--platform", "ios"])
            #expect(explained.status == 1 && explained.stdout.contains("profile-required"), "\(explained.stdout)")
            let text = try run(kclab, ["explain", "install", tool])
            #expect(text.stdout.contains("as macos holds them: com.apple.token"), "\(text.stdout)")
        }
    }
}
