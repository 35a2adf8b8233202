import AppIdentity
import CMSSupport
import Foundation
import Testing
import WorldTestSupport

/// Every refusal the foundation issue lists, each from a bundle built with real keys and signatures.
@Suite struct BundleVerifierTests {
    struct Refused: Sendable, CustomTestStringConvertible {
        let bundleID: String
        let rule: Refusal.Rule
        let mentions: String
        var testDescription: String { "\(bundleID) → \(rule.rawValue)" }
    }

    static let refusals: [Refused] = [
        Refused(bundleID: "one.editedEntitlements", rule: .modifiedAfterSigning, mentions: "entitlements edited after signing"),
        Refused(bundleID: "one.foreignGroup", rule: .entitlementNotAllowed, mentions: "BBBBB22222.shared"),
        Refused(bundleID: "one.unregisteredGroup", rule: .entitlementNotAllowed, mentions: "group.not.registered"),
        Refused(bundleID: "one.expired", rule: .profileDates, mentions: "expired"),
        Refused(bundleID: "one.otherDevice", rule: .deviceNotProvisioned, mentions: TestWorlds.deviceA),
        Refused(bundleID: "one.untrustedProfile", rule: .profileTrust, mentions: "not trusted"),
        Refused(bundleID: "one.untrustedCertificate", rule: .codeSignatureTrust, mentions: "not trusted"),
        Refused(bundleID: "one.signedByOther", rule: .signerNotInProfile, mentions: "Team Two"),
        Refused(bundleID: "one.replacedExecutable", rule: .modifiedAfterSigning, mentions: "executable"),
        Refused(bundleID: "one.wildcardWithGroup", rule: .entitlementNotAllowed, mentions: "wildcard App ID"),
        Refused(bundleID: "one.wildcardWithDomain", rule: .entitlementNotAllowed, mentions: "wildcard App ID"),
        Refused(bundleID: "one.forgedAppID", rule: .applicationIdentifier, mentions: "does not end with the signed bundle ID"),
        Refused(bundleID: "one.debuggableDistribution", rule: .entitlementNotAllowed, mentions: "get-task-allow"),
    ]

    @Test func refusesEachBrokenBundleWithItsReason() async throws {
        try await withBuiltWorld { built in
            let verifier = try Self.verifier(built)
            for expected in Self.refusals {
                let verdict = verifier.verify(bundleAt: built.bundle(expected.bundleID), device: TestWorlds.deviceA)
                #expect(!verdict.valid, "\(expected.bundleID) should be refused")
                #expect(verdict.accessGroups.isEmpty && verdict.associatedDomains.isEmpty, "a refused bundle is granted nothing")
                let matching = verdict.reasons.filter { $0.rule == expected.rule && $0.description.contains(expected.mentions) }
                #expect(
                    !matching.isEmpty,
                    "\(expected.bundleID): expected \(expected.rule.rawValue) mentioning '\(expected.mentions)', got \(verdict.reasons)"
                )
            }
        }
    }

    @Test func acceptsGoodBundlesWithGroupsInAppleOrder() async throws {
        try await withBuiltWorld { built in
            let verifier = try Self.verifier(built)
            let good = verifier.verify(bundleAt: built.bundle("one.good"), device: TestWorlds.deviceA)
            #expect(good.valid, "\(good.reasons)")
            #expect(good.appID == "AAAAA11111.one.good")
            #expect(good.teamID == "AAAAA11111")
            #expect(
                good.accessGroups.map(\.rawValue) == ["AAAAA11111.one.shared", "AAAAA11111.one.other", "AAAAA11111.one.good", "group.one.shared"]
            )
            #expect(good.associatedDomains == ["webcredentials:example.com", "applinks:example.com"])

            let seeded = verifier.verify(bundleAt: built.bundle("one.seeded"), device: TestWorlds.deviceB)
            #expect(seeded.valid, "\(seeded.reasons)")
            #expect(seeded.appID == "CCCCC33333.one.seeded")
            #expect(seeded.teamID == "AAAAA11111")
            #expect(seeded.accessGroups.map(\.rawValue) == ["CCCCC33333.family", "CCCCC33333.one.seeded"])

            let wildcard = verifier.verify(bundleAt: built.bundle("one.wildcard"))
            #expect(wildcard.valid, "\(wildcard.reasons)")
            #expect(wildcard.accessGroups.map(\.rawValue) == ["AAAAA11111.one.wildcard"])

            let mac = verifier.verify(bundleAt: built.bundle("two.good"), device: TestWorlds.deviceB)
            #expect(mac.valid, "\(mac.reasons)")
            #expect(mac.accessGroups.map(\.rawValue) == ["BBBBB22222.shared", "BBBBB22222.two.good"])
        }
    }

    @Test func theDeviceCheckAppliesOnlyWhenADeviceIsNamed() async throws {
        try await withBuiltWorld { built in
            let verifier = try Self.verifier(built)
            #expect(verifier.verify(bundleAt: built.bundle("one.otherDevice")).valid)
            #expect(verifier.verify(bundleAt: built.bundle("one.otherDevice"), device: TestWorlds.deviceB).valid)
        }
    }

    @Test func profilesExpireWithTime() async throws {
        try await withBuiltWorld { built in
            let verifier = try Self.verifier(built)
            let later = Date().addingTimeInterval(400 * 86_400)
            let verdict = verifier.verify(bundleAt: built.bundle("one.good"), at: later)
            #expect(verdict.reasons.contains { $0.rule == .profileDates })
            // The team certificate has expired by then too.
            #expect(verdict.reasons.contains { $0.rule == .codeSignatureTrust && $0.detail.contains("expired") })
        }
    }

    @Test func refusesFilesChangedOnDisk() async throws {
        try await withBuiltWorld { built in
            let verifier = try Self.verifier(built)
            let bundle = built.bundle("one.good")

            // Info.plist renamed to another app.
            let infoURL = bundle.appending(path: "Info.plist")
            let info = try Data(contentsOf: infoURL)
            try Data(String(decoding: info, as: UTF8.self).replacingOccurrences(of: "one.good", with: "one.evil").utf8).write(to: infoURL)
            var verdict = verifier.verify(bundleAt: bundle)
            #expect(verdict.reasons.contains { $0.rule == .modifiedAfterSigning && $0.detail.contains("Info.plist") })
            #expect(verdict.reasons.contains { $0.rule == .applicationIdentifier })
            try info.write(to: infoURL)
            #expect(verifier.verify(bundleAt: bundle).valid)

            // Another app's profile swapped in.
            let profileURL = bundle.appending(path: "embedded.mobileprovision")
            let profile = try Data(contentsOf: profileURL)
            try Data(contentsOf: built.bundle("one.seeded").appending(path: "embedded.mobileprovision")).write(to: profileURL)
            verdict = verifier.verify(bundleAt: bundle)
            #expect(verdict.reasons.contains { $0.rule == .modifiedAfterSigning && $0.detail.contains("mobileprovision") })

            // The profile removed, to pass as a Developer ID app whose entitlements nothing checks:
            // the signature covers the profile, so even a Mac refuses it.
            try FileManager.default.removeItem(at: profileURL)
            verdict = verifier.verify(bundleAt: bundle, platform: .macos)
            #expect(verdict.reasons.map(\.rule) == [.modifiedAfterSigning], "\(verdict.reasons)")
            #expect(verdict.accessGroups.isEmpty)
            verdict = verifier.verify(bundleAt: bundle, platform: .ios)
            #expect(verdict.reasons.map(\.rule) == [.profileRequired, .modifiedAfterSigning], "\(verdict.reasons)")
            try profile.write(to: profileURL)

            // One byte of the signed code directory flipped inside the CMS message.
            let signatureURL = bundle.appending(path: "_CodeSignature/CodeSignature")
            var signature = try Data(contentsOf: signatureURL)
            let marker = try #require(signature.firstRange(of: Data("AAAAA11111.one.shared".utf8)))
            signature[marker.lowerBound] = UInt8(ascii: "Z")
            try signature.write(to: signatureURL)
            verdict = verifier.verify(bundleAt: bundle)
            #expect(verdict.reasons.contains { $0.rule == .codeSignature })
            #expect(verdict.accessGroups.isEmpty)

            // A missing signature.
            try FileManager.default.removeItem(at: signatureURL)
            verdict = verifier.verify(bundleAt: bundle)
            #expect(verdict.reasons.map(\.rule) == [.bundleLayout])
        }
    }

    @Test func anotherWorldsRootTrustsNothingHere() async throws {
        try await withBuiltWorld { first in
            try await withBuiltWorld { second in
                let strangers = try Self.verifier(second)
                let verdict = strangers.verify(bundleAt: first.bundle("one.good"))
                #expect(verdict.reasons.contains { $0.rule == .profileTrust })
                #expect(verdict.reasons.contains { $0.rule == .codeSignatureTrust })
            }
        }
    }

    static func verifier(_ built: BuiltWorld) throws -> BundleVerifier {
        BundleVerifier(trust: try built.trustStore())
    }
}
