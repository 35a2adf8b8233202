import AppIdentity
import Foundation
import Testing

/// Whether a profile allows what a signature claims (the install-time check of the foundation issue).
@Suite struct EntitlementPolicyTests {
    static let profileEntitlements: [String: PlistValue] = [
        "application-identifier": .string("ABCDE12345.com.example.AppOne"),
        "com.apple.developer.team-identifier": .string("ABCDE12345"),
        "keychain-access-groups": .array([.string("ABCDE12345.*"), .string("com.apple.token")]),
        "com.apple.security.application-groups": .array([.string("group.com.example.AppSuite")]),
        "com.apple.developer.associated-domains": .string("*"),
        "get-task-allow": .bool(false),
    ]

    static func profile(_ entitlements: [String: PlistValue] = profileEntitlements) -> ProvisioningProfile {
        ProvisioningProfile(
            name: "test",
            appIDName: "test",
            applicationIdentifierPrefixes: [try! TeamID("ABCDE12345")],
            teamIdentifiers: [try! TeamID("ABCDE12345")],
            teamName: "Example",
            platforms: ["iOS"],
            entitlements: Entitlements(entitlements),
            developerCertificates: [],
            provisionedDevices: nil,
            creationDate: Date(timeIntervalSince1970: 0),
            expirationDate: Date(timeIntervalSince1970: 1),
            uuid: UUID().uuidString.lowercased()
        )
    }

    @Test(arguments: [
        ("keychain-access-groups", PlistValue.array([.string("ABCDE12345.com.example.SharedItems")]), true),
        ("keychain-access-groups", .array([.string("com.apple.token"), .string("ABCDE12345.x")]), true),
        ("keychain-access-groups", .array([.string("OTHER98765.com.example.SharedItems")]), false),
        ("keychain-access-groups", .array([.string("ABCDE12345.ok"), .string("group.sneaky")]), false),
        ("keychain-access-groups", .array([.string(""), .string("ABCDE12345.ok")]), true),
        ("com.apple.security.application-groups", .array([.string("group.com.example.AppSuite")]), true),
        ("com.apple.security.application-groups", .array([.string("group.com.example.Unregistered")]), false),
        ("com.apple.developer.associated-domains", .array([.string("webcredentials:example.com")]), true),
        ("application-identifier", .string("ABCDE12345.com.example.AppOne"), true),
        ("application-identifier", .string("ABCDE12345.com.example.AppTwo"), false),
        ("get-task-allow", .bool(false), true),
        ("get-task-allow", .bool(true), false),
        ("com.apple.developer.team-identifier", .string("OTHER98765"), false),
        ("com.apple.private.keychain.deny", .bool(true), false),
    ])
    func decidesEachEntitlement(_ key: String, _ value: PlistValue, _ allowed: Bool) {
        let refusals = EntitlementPolicy.violations(of: Entitlements([key: value]), allowedBy: Self.profile())
        #expect(refusals.isEmpty == allowed)
        #expect(refusals.allSatisfy { $0.rule == .entitlementNotAllowed && $0.detail.contains(key) })
    }

    @Test func developmentProfilesAllowEitherDebugSetting() {
        var entitlements = Self.profileEntitlements
        entitlements["get-task-allow"] = .bool(true)
        let profile = Self.profile(entitlements)
        for flag in [true, false] {
            #expect(EntitlementPolicy.violations(of: Entitlements(["get-task-allow": .bool(flag)]), allowedBy: profile).isEmpty)
        }
    }

    @Test func wildcardAppIDsCannotCarryCapabilities() throws {
        let profile = Self.profile([
            "application-identifier": .string("ABCDE12345.*"),
            "keychain-access-groups": .array([.string("ABCDE12345.*")]),
        ])
        let claimed = Entitlements([
            "application-identifier": .string("ABCDE12345.com.example.Any"),
            "com.apple.security.application-groups": .array([.string("group.com.example.AppSuite")]),
            "com.apple.developer.associated-domains": .array([.string("webcredentials:example.com")]),
        ])
        let refusals = EntitlementPolicy.violations(of: claimed, allowedBy: profile)
        #expect(refusals.count == 2)
        #expect(refusals.allSatisfy { $0.detail.contains("wildcard App ID") })
    }

    @Test func eachRefusalNamesTheValuesItDenies() throws {
        let claimed = Entitlements(["keychain-access-groups": .array([.string("ABCDE12345.ok"), .string("OTHER98765.no")])])
        let refusal = try #require(EntitlementPolicy.violations(of: claimed, allowedBy: Self.profile()).first)
        #expect(refusal.detail.contains("'OTHER98765.no'"))
        #expect(!refusal.detail.contains("'ABCDE12345.ok' not allowed"))
    }
}
