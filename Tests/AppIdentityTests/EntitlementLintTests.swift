import AppIdentity
import Foundation
import Testing

/// `kclab lint`'s rules, one case each, and a matching pair that passes every one.
@Suite struct EntitlementLintTests {
    static let team = try! TeamID("ABCDE12345")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let granted: [String: PlistValue] = [
        "application-identifier": .string("ABCDE12345.com.example.AppOne"),
        "com.apple.developer.team-identifier": .string("ABCDE12345"),
        "keychain-access-groups": .array([.string("ABCDE12345.*")]),
        "com.apple.security.application-groups": .array([.string("group.com.example.Suite")]),
        "com.apple.developer.associated-domains": .string("*"),
        "aps-environment": .string("development"),
        "get-task-allow": .bool(true),
    ]

    static let claimed: [String: PlistValue] = [
        "keychain-access-groups": .array([.string("$(AppIdentifierPrefix)com.example.Shared")]),
        "com.apple.security.application-groups": .array([.string("group.com.example.Suite")]),
        "com.apple.developer.associated-domains": .array([.string("webcredentials:example.com")]),
        "aps-environment": .string("development"),
        "get-task-allow": .bool(true),
    ]

    static func profile(
        _ entitlements: [String: PlistValue] = granted,
        platforms: [String] = ["iOS"],
        devices: [String]? = ["00008030-001A2B3C4D5E802E"],
        expires: Date = now.addingTimeInterval(86_400)
    ) -> ProvisioningProfile {
        ProvisioningProfile(
            name: "AppOne Development",
            appIDName: "AppOne",
            applicationIdentifierPrefixes: [team],
            teamIdentifiers: [team],
            teamName: "Example",
            platforms: platforms,
            entitlements: Entitlements(entitlements),
            developerCertificates: [],
            provisionedDevices: devices,
            creationDate: now.addingTimeInterval(-86_400),
            expirationDate: expires,
            uuid: UUID().uuidString.lowercased()
        )
    }

    static func lint(
        _ claimed: [String: PlistValue] = claimed,
        profile: ProvisioningProfile = profile(),
        bundleID: String? = nil,
        platform: Platform? = nil,
        configuration: EntitlementLint.Configuration? = nil
    ) -> [LintFinding] {
        EntitlementLint(
            claimed: Entitlements(claimed),
            profile: profile,
            bundleID: bundleID.flatMap { try? BundleID($0) },
            platform: platform,
            configuration: configuration,
            date: now,
            entryProblem: { $0.contains(":") ? nil : "it has no service" }
        ).findings()
    }

    static func failed(_ findings: [LintFinding]) -> [String] {
        findings.filter { $0.result == .fail }.map(\.rule)
    }

    @Test func aMatchingPairPassesEveryRule() {
        let findings = Self.lint()
        #expect(Self.failed(findings).isEmpty, "\(findings)")
        #expect(
            Set(findings.map(\.rule)).isSuperset(of: [
                "profile-dates", "application-identifier", "team-identifier", "keychain-access-groups",
                "com.apple.security.application-groups", "com.apple.developer.associated-domains", "associated-domains-form",
                "get-task-allow", "aps-environment", "devices",
            ])
        )
    }

    @Test func eachRuleCatchesItsMistake() {
        var claimed = Self.claimed
        claimed["application-identifier"] = .string("ABCDE12345.com.example.AppTwo")
        #expect(Self.failed(Self.lint(claimed)) == ["application-identifier"])

        #expect(Self.failed(Self.lint(["com.apple.developer.team-identifier": .string("OTHER98765")])) == ["team-identifier"])

        claimed = Self.claimed
        claimed["keychain-access-groups"] = .array([.string("com.example.Shared")])
        let group = Self.lint(claimed)
        #expect(Self.failed(group) == ["keychain-access-groups"])
        #expect(group.first { $0.rule == "keychain-access-groups" }?.fix?.contains("$(AppIdentifierPrefix)") == true)
        #expect(group.first { $0.rule == "keychain-access-groups" }?.detail.contains("did you mean ABCDE12345.com.example.Shared?") == true)

        claimed = Self.claimed
        claimed["com.apple.security.application-groups"] = .array([.string("group.com.example.Other")])
        #expect(Self.failed(Self.lint(claimed)) == ["com.apple.security.application-groups"])

        var grantedGroups = Self.granted
        grantedGroups["com.apple.security.application-groups"] = .array([.string("*")])
        claimed = Self.claimed
        claimed["com.apple.security.application-groups"] = .array([.string("com.example.NoPrefix")])
        #expect(Self.failed(Self.lint(claimed, profile: Self.profile(grantedGroups))) == ["app-group-names"], "iOS wants group.")

        claimed = Self.claimed
        claimed["com.apple.developer.associated-domains"] = .array([.string("example.com")])
        #expect(Self.failed(Self.lint(claimed)) == ["associated-domains-form"])

        var noDomains = Self.granted
        noDomains["com.apple.developer.associated-domains"] = nil
        #expect(Self.failed(Self.lint(profile: Self.profile(noDomains))) == ["com.apple.developer.associated-domains"])

        var distribution = Self.granted
        distribution["get-task-allow"] = .bool(false)
        distribution["aps-environment"] = .string("production")
        claimed = Self.claimed
        claimed["aps-environment"] = nil
        #expect(Self.failed(Self.lint(claimed, profile: Self.profile(distribution, devices: nil))) == ["get-task-allow"])
        #expect(Self.failed(Self.lint(claimed, configuration: .release)) == ["get-task-allow"])

        claimed = Self.claimed
        claimed["aps-environment"] = .string("production")
        #expect(Self.failed(Self.lint(claimed)) == ["aps-environment"])

        #expect(Self.failed(Self.lint(profile: Self.profile(expires: Self.now.addingTimeInterval(-1)))) == ["profile-dates"])
        #expect(Self.failed(Self.lint(profile: Self.profile(devices: []))) == ["devices"])

        claimed = Self.claimed
        claimed["com.apple.developer.healthkit"] = .bool(true)
        #expect(Self.failed(Self.lint(claimed)) == ["entitlement"])

        claimed = Self.claimed
        claimed["keychain-access-groups"] = .array([.string("$(NoSuchSetting)x")])
        #expect(Self.failed(Self.lint(claimed)) == ["build-variables"])
    }

    @Test func aMacAppGrantsItsSandboxItselfAndPrefixesItsGroups() {
        var granted = Self.granted
        granted["com.apple.security.application-groups"] = .array([.string("ABCDE12345.*")])
        let mac = Self.profile(granted, platforms: ["OSX"])
        var claimed = Self.claimed
        claimed["com.apple.security.application-groups"] = .array([.string("ABCDE12345.com.example.Suite")])
        claimed["com.apple.security.app-sandbox"] = .bool(true)
        claimed["com.apple.security.network.client"] = .bool(true)
        #expect(Self.failed(Self.lint(claimed, profile: mac)).isEmpty, "sandbox entitlements need no profile")
        claimed["com.apple.security.application-groups"] = .array([.string("com.example.Suite")])
        #expect(Self.failed(Self.lint(claimed, profile: mac)).contains("app-group-names"))
    }

    @Test func aWildcardAppIDNeedsTheBundleID() {
        var wildcard = Self.granted
        wildcard["application-identifier"] = .string("ABCDE12345.*")
        #expect(Self.failed(Self.lint(profile: Self.profile(wildcard))) == ["bundle-id"])
        #expect(Self.failed(Self.lint(profile: Self.profile(wildcard), bundleID: "com.example.Anything")).isEmpty)
    }

    @Test func aBundleIDTheAppIDDoesNotCoverFails() {
        let explicit = Self.lint(bundleID: "com.example.AppTwo")
        #expect(Self.failed(explicit).contains("bundle-id"), "\(explicit)")
        #expect(explicit.first { $0.rule == "bundle-id" }?.detail.contains("explicit App ID ABCDE12345.com.example.AppOne") == true)
        #expect(Self.failed(Self.lint(bundleID: "com.example.AppOne")).isEmpty)

        var wildcard = Self.granted
        wildcard["application-identifier"] = .string("ABCDE12345.com.example.*")
        let outside = Self.lint(profile: Self.profile(wildcard), bundleID: "org.other.App")
        #expect(Self.failed(outside).contains("bundle-id"), "\(outside)")
        #expect(Self.failed(Self.lint(profile: Self.profile(wildcard), bundleID: "com.example.Widget")).isEmpty)
    }

    @Test func aProfileChangedAfterSigningFailsRuleSignature() {
        let findings = EntitlementLint(claimed: Entitlements(Self.claimed), profile: Self.profile(), signatureValid: false, date: Self.now)
            .findings()
        #expect(Self.failed(findings) == ["signature"])
        #expect(findings.first?.detail.contains("changed after Apple signed it") == true)
    }

    @Test(arguments: [
        ("keychain-acess-groups", "keychain-access-groups"),
        ("com.apple.security.application-group", "com.apple.security.application-groups"),
        ("com.apple.developer.associated-domain", "com.apple.developer.associated-domains"),
        ("com.apple.security.app-sandox", "com.apple.security.app-sandbox"),
    ])
    func aMisspelledKeyGetsTheKeyMeant(typed: String, meant: String) {
        var claimed = Self.claimed
        claimed[typed] = .array([.string("ABCDE12345.com.example.Shared")])
        let findings = Self.lint(claimed, profile: Self.profile(platforms: meant.contains("sandbox") ? ["OSX"] : ["iOS"]))
        let finding = findings.first { $0.rule == "entitlement-key" }
        #expect(finding?.result == .fail && finding?.detail.contains("did you mean \(meant)?") == true, "\(findings)")
        #expect(!findings.contains { $0.rule == "entitlement" && $0.detail.contains(typed) }, "one finding for the typo, not two")
    }

    @Test func aKeyAppleKnowsOrTheProfileGrantsIsNoMisspelling() {
        var granted = Self.granted
        granted["com.example.custom-flag"] = .bool(true)
        var claimed = Self.claimed
        claimed["com.example.custom-flag"] = .bool(true)
        claimed["com.apple.developer.icloud-services"] = .array([.string("CloudKit")])
        let findings = Self.lint(claimed, profile: Self.profile(granted))
        #expect(!findings.contains { $0.rule == "entitlement-key" }, "\(findings)")
    }

    @Test func anAppGroupFixSaysWhatThePlatformWants() {
        var claimed = Self.claimed
        claimed["com.apple.security.application-groups"] = .array([.string("group.com.example.Other")])
        let ios = Self.lint(claimed).first { $0.rule == "com.apple.security.application-groups" }
        #expect(ios?.fix?.contains("group.") == true && ios?.fix?.contains("team") == false, "\(String(describing: ios))")

        let mac = Self.lint(claimed, profile: Self.profile(platforms: ["OSX"])).first { $0.rule == "com.apple.security.application-groups" }
        #expect(mac?.result == .fail && mac?.fix?.contains("ABCDE12345.") == true, "\(String(describing: mac))")
    }

    @Test func aMacGroupNamedAfterTheTeamNeedsNoRegistration() {
        var claimed = Self.claimed
        claimed["com.apple.security.application-groups"] = .array([.string("ABCDE12345.com.example.Unlisted")])
        let mac = Self.lint(claimed, profile: Self.profile(platforms: ["OSX"]))
        #expect(Self.failed(mac).isEmpty, "\(mac)")
        let groupOnly = Entitlements(["com.apple.security.application-groups": .array([.string("ABCDE12345.com.example.Unlisted")])])
        #expect(EntitlementPolicy.violations(of: groupOnly, allowedBy: Self.profile(platforms: ["OSX"])).isEmpty, "the installer agrees")
        let ios = Self.lint(claimed)
        #expect(Self.failed(ios).contains("com.apple.security.application-groups"), "iOS registers every group")
        var other = Self.claimed
        other["com.apple.security.application-groups"] = .array([.string("OTHER98765.com.example.Unlisted")])
        #expect(Self.failed(Self.lint(other, profile: Self.profile(platforms: ["OSX"]))).contains("com.apple.security.application-groups"))
    }

    /// `--platform` must be one the profile is for: an iOS profile does not sign a macOS build.
    @Test func aPlatformTheProfileIsNotForFails() {
        let mac = Self.lint(platform: .macos)
        #expect(mac.first { $0.rule == "platform" }?.result == .fail, "\(mac)")
        #expect(mac.first { $0.rule == "platform" }?.detail.contains("the profile is for iOS") == true)
        #expect(Self.lint(platform: .ios).first { $0.rule == "platform" }?.result == .pass)
        #expect(Self.lint().contains { $0.rule == "platform" } == false, "the profile's own platform needs no check")
        #expect(Self.failed(Self.lint(profile: Self.profile(platforms: ["OSX"]), platform: .ios)).contains("platform"))
    }

    /// A Mac app's debugging entitlement is com.apple.security.get-task-allow: a release build or
    /// a distribution profile refuses it as iOS's get-task-allow.
    @Test func aMacBuildsGetTaskAllowIsItsHardenedRuntimeKey() {
        var mac = Self.claimed
        mac["get-task-allow"] = nil
        mac["com.apple.security.get-task-allow"] = .bool(true)
        let profile = Self.profile(platforms: ["OSX"])
        let release = Self.lint(mac, profile: profile, platform: .macos, configuration: .release)
        #expect(release.first { $0.rule == "get-task-allow" }?.result == .fail, "\(release)")
        #expect(Self.lint(mac, profile: profile, platform: .macos, configuration: .debug).first { $0.rule == "get-task-allow" }?.result == .pass)
        mac["com.apple.security.get-task-allow"] = .bool(false)
        #expect(Self.lint(mac, profile: profile, platform: .macos, configuration: .release).first { $0.rule == "get-task-allow" }?.result == .pass)
    }

    /// A file given as the .entitlements that is not one is named for what it is.
    @Test func aFileThatIsNotAnEntitlementsFileIsNamed() throws {
        let info = try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.example.AppOne", "CFBundleName": "AppOne"],
            format: .xml,
            options: 0
        )
        #expect(EntitlementsFileShape.problem(info)?.hasPrefix("this is an Info.plist, not an entitlements file") == true)
        let profileList = try PropertyListSerialization.data(
            fromPropertyList: ["UUID": "x", "Entitlements": [String: String]()],
            format: .xml,
            options: 0
        )
        #expect(EntitlementsFileShape.problem(profileList)?.contains("a profile's property list") == true)
        #expect(EntitlementsFileShape.problem(Data([0x30, 0x82, 0x01, 0x00]))?.hasPrefix("this is a signed profile") == true)
        #expect(EntitlementsFileShape.problem(Data(#"{"applinks": {}}"#.utf8))?.hasPrefix("this is JSON") == true)
        let entitlements = try PropertyListSerialization.data(fromPropertyList: ["keychain-access-groups": ["A.b"]], format: .xml, options: 0)
        #expect(EntitlementsFileShape.problem(entitlements) == nil)
    }

    /// A profile that provisions every device is an enterprise one on iOS, a Developer ID one on a Mac.
    @Test func everyDeviceIsNamedByTheProfilesMethod() {
        var enterprise = Self.profile(devices: nil)
        enterprise.provisionsAllDevices = true
        var developerID = Self.profile(platforms: ["OSX"], devices: nil)
        developerID.provisionsAllDevices = true
        #expect(Self.lint(profile: enterprise).first { $0.rule == "devices" }?.detail == "any device (enterprise)")
        #expect(Self.lint(profile: developerID).first { $0.rule == "devices" }?.detail == "any Mac (Developer ID)")
    }
}
