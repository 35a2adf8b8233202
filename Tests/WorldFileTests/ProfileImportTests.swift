import AppIdentity
import Foundation
import Testing
import WorldFile
import WorldImport
import XcodeProject

/// `kclab world import --profile`: what a real profile says of its app, as a world declares it.
/// The profiles here have the shape of Apple's (a legacy prefix, a device list, app groups,
/// aps-environment, the keychain wildcard and the token group); reading the CMS envelope is
/// ProfileInspection's, tested with signed profiles in AppIdentityTests and KclabTests.
@Suite struct ProfileImportTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    static func profile(
        appID: String,
        prefix: String = "ABC1234DEF",
        platform: String = "iOS",
        entitlements more: [String: PlistValue] = [:],
        devices: [String]? = ["00008030-001A2B3C4D5E802E"],
        days: Double = 365,
        createdDaysAgo: Double = 10
    ) throws -> ProvisioningProfile {
        var entitlements = Entitlements()
        entitlements[platform == "OSX" ? EntitlementKey.macApplicationIdentifier : EntitlementKey.applicationIdentifier] = .string(appID)
        entitlements[EntitlementKey.teamIdentifier] = .string("ABCDE12345")
        entitlements[EntitlementKey.keychainAccessGroups] = .array([.string("\(prefix).*"), .string("com.apple.token")])
        entitlements[EntitlementKey.getTaskAllow] = .bool(devices != nil)
        for (key, value) in more { entitlements[key] = value }
        let created = now.addingTimeInterval(-createdDaysAgo * 86_400)
        return ProvisioningProfile(
            name: "iOS Team Provisioning Profile: \(appID)",
            appIDName: "Notes",
            applicationIdentifierPrefixes: [try TeamID(prefix)],
            teamIdentifiers: [try TeamID("ABCDE12345")],
            teamName: "Example Inc.",
            platforms: [platform],
            entitlements: entitlements,
            developerCertificates: [],
            provisionedDevices: devices,
            creationDate: created,
            expirationDate: created.addingTimeInterval(days * 86_400),
            uuid: UUID().uuidString.lowercased()
        )
    }

    /// A world file from `imported`, loaded as `kclab up` would load it.
    static func world(_ imported: ProjectImport) throws -> World {
        let file = FileManager.default.temporaryDirectory.appending(path: "profile-import-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try imported.worldYAML().utf8).write(to: file)
        return try World.load(contentsOf: file)
    }

    @Test func anExplicitDevelopmentProfileUnderALegacyPrefix() throws {
        let real = try Self.profile(
            appID: "ABC1234DEF.com.example.notes",
            entitlements: [
                EntitlementKey.applicationGroups: .array([.string("group.com.example.notes")]),
                EntitlementKey.associatedDomains: .string("*"),
                "aps-environment": .string("development"),
                "com.apple.developer.icloud-container-identifiers": .array([.string("iCloud.com.example.notes")]),
            ]
        )
        let imported = try ImportedProfile(real, bundleID: nil, at: Self.now)
        #expect(imported.team.rawValue == "ABCDE12345" && imported.bundleSeedID?.rawValue == "ABC1234DEF")
        #expect(imported.bundleID.rawValue == "com.example.notes" && !imported.isWildcard)
        #expect(imported.kind == .development && imported.validDays == 365 && !imported.expired)
        #expect(imported.appGroups == ["group.com.example.notes"])
        #expect(
            Set(imported.grants.keys) == ["aps-environment", "com.apple.developer.icloud-container-identifiers"],
            "only what the rule does not give"
        )
        #expect(imported.notes.contains { $0.contains("1 devices") })

        let entitlements: [String: PlistValue] = [
            EntitlementKey.keychainAccessGroups: .array([.string("$(AppIdentifierPrefix)com.example.shared")]),
            EntitlementKey.applicationGroups: .array([.string("group.com.example.notes")]),
            "aps-environment": .string("development"),
        ]
        let world = try Self.world(ProjectImport(profile: imported, entitlements: entitlements, file: "Notes.entitlements"))
        let app = try #require(world.app(try BundleID("com.example.notes")))
        #expect(app.appID.rawValue == "ABC1234DEF.com.example.notes", "signed under the profile's prefix")
        #expect(app.entitlements.keychainAccessGroups == ["ABC1234DEF.com.example.shared"], "$(AppIdentifierPrefix) is the profile's prefix")
        #expect(app.profile.kind == .development && app.profile.grants["aps-environment"] == .string("development"))
        #expect(world.team(try TeamID("ABCDE12345"))?.appGroups == ["group.com.example.notes"])
        #expect(world.unregisteredAppGroups(of: app).isEmpty)
    }

    @Test func aWildcardProfileNeedsTheBundleIDItCovers() throws {
        let real = try Self.profile(appID: "ABCDE12345.com.example.*", prefix: "ABCDE12345", devices: nil, days: 30, createdDaysAgo: 40)
        #expect(throws: XcodeProjectError.self) { try ImportedProfile(real, bundleID: nil, at: Self.now) }
        #expect(throws: XcodeProjectError.self) { try ImportedProfile(real, bundleID: try BundleID("org.other.app"), at: Self.now) }
        let imported = try ImportedProfile(real, bundleID: try BundleID("com.example.tool"), at: Self.now)
        #expect(imported.isWildcard && imported.bundleSeedID == nil && imported.kind == .distribution)
        #expect(imported.expired && imported.validDays == 30)
        let world = try Self.world(ProjectImport(profile: imported))
        let app = try #require(world.apps.first { $0.bundleID.rawValue == "com.example.tool" })
        #expect(app.appIDKind == .wildcard && app.profile.expired && app.profile.kind == .distribution)
    }

    /// Each method as Xcode names it. A Mac development profile lists devices but grants no
    /// get-task-allow, and a Developer ID profile provisions every Mac: neither is iOS's ad hoc or
    /// enterprise, and the import signs the first as development.
    @Test func methodsAsXcodeNamesThem() throws {
        func method(_ platform: String, getTaskAllow: Bool, devices: [String]?, all: Bool = false) throws -> ProvisioningProfile.Method {
            var profile = try Self.profile(appID: "ABCDE12345.a.b", prefix: "ABCDE12345", platform: platform, devices: devices)
            profile.entitlements[EntitlementKey.getTaskAllow] = getTaskAllow ? .bool(true) : nil
            profile.provisionsAllDevices = all
            return profile.method
        }
        #expect(try method("iOS", getTaskAllow: true, devices: ["X"]) == .development)
        #expect(try method("iOS", getTaskAllow: false, devices: ["X"]) == .adHoc)
        #expect(try method("iOS", getTaskAllow: false, devices: nil, all: true) == .enterprise)
        #expect(try method("iOS", getTaskAllow: false, devices: nil) == .appStore)
        #expect(try method("OSX", getTaskAllow: false, devices: ["X"]) == .development)
        #expect(try method("OSX", getTaskAllow: false, devices: nil, all: true) == .developerID)
        #expect(try method("OSX", getTaskAllow: false, devices: nil) == .appStore)

        var macDevelopment = try Self.profile(appID: "ABCDE12345.a.b", prefix: "ABCDE12345", platform: "OSX")
        macDevelopment.entitlements[EntitlementKey.getTaskAllow] = nil
        #expect(try ImportedProfile(macDevelopment, bundleID: nil, at: Self.now).kind == .development)
    }

    @Test func anExplicitProfileRefusesAnotherBundleID() throws {
        let real = try Self.profile(appID: "ABC1234DEF.com.example.notes")
        #expect(throws: XcodeProjectError.self) { try ImportedProfile(real, bundleID: try BundleID("com.example.other"), at: Self.now) }
    }

    @Test func aMacProfileMakesAMacApp() throws {
        let real = try Self.profile(
            appID: "ABCDE12345.com.example.desk",
            prefix: "ABCDE12345",
            platform: "OSX",
            entitlements: ["com.apple.developer.team-identifier": .string("ABCDE12345")]
        )
        let imported = try ImportedProfile(real, bundleID: nil, at: Self.now)
        #expect(imported.platform == .macos && imported.grants.isEmpty)
        let world = try Self.world(ProjectImport(profile: imported))
        #expect(world.apps.first { $0.bundleID.rawValue == "com.example.desk" }?.platform == .macos)
        #expect(world.devices.map(\.id) == ["mac"])
    }
}
