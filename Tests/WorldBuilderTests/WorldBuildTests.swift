import AppIdentity
import CMSSupport
import Crypto
import Foundation
import ServiceSupport
import SwiftASN1
import Testing
import WorldBuilder
import WorldFile
import WorldLayout
import WorldTestSupport
import X509

@Suite struct WorldBuildTests {
    /// Every file under `folder` with the SHA-256 of its bytes.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(url.path.dropFirst(folder.path.count + 1))
            files[relative] = SHA256.hash(data: try Data(contentsOf: url)).description
        }
        return files
    }

    /// Rebuilt from the same inputs (the world and the program folder), nothing changes.
    @Test func rebuildingAnUnchangedWorldChangesNothing() async throws {
        try await withBuiltWorld { built in
            let before = try Self.snapshot(built.layout.root)
            let report = try WorldBuilder(world: built.world, output: built.layout.root, programs: productsDirectory).build()
            #expect(report.written.isEmpty, "\(report.written)")
            #expect(report.unchanged > 50)
            #expect(try Self.snapshot(built.layout.root) == before)
        }
    }

    @Test func changingOneAppRewritesOnlyThatApp() async throws {
        try await withBuiltWorld { built in
            var world = built.world
            let index = try #require(world.apps.firstIndex { $0.bundleID.rawValue == "one.good" })
            world.apps[index].entitlements[EntitlementKey.keychainAccessGroups] = .array([.string("AAAAA11111.one.changed")])
            let report = try WorldBuilder(world: world, output: built.layout.root, programs: productsDirectory).build()
            #expect(
                Set(report.written) == ["apps/one.good.app/archived-expanded-entitlements.xcent", "apps/one.good.app/_CodeSignature/CodeSignature"]
            )
            let verdict = BundleVerifier(trust: try built.trustStore()).verify(bundleAt: built.bundle("one.good"))
            #expect(verdict.accessGroups.first?.rawValue == "AAAAA11111.one.changed")
        }
    }

    @Test func removingAnAppRemovesItsFiles() async throws {
        try await withBuiltWorld { built in
            var world = built.world
            world.apps.removeAll { $0.bundleID.rawValue == "one.expired" }
            let report = try WorldBuilder(world: world, output: built.layout.root, programs: productsDirectory).build()
            #expect(report.written.contains("-profiles/one.expired.mobileprovision"))
            #expect(!FileManager.default.fileExists(atPath: built.file("profiles/one.expired.mobileprovision").path))
            #expect(!FileManager.default.fileExists(atPath: built.bundle("one.expired").appending(path: "Info.plist").path))
        }
    }

    /// One bundle ID built for iOS and for macOS: two bundles, each signed under its own profile
    /// with its own entitlements, the Mac build in `apps/macos/`.
    @Test func aBuildPerPlatformGetsItsOwnBundleAndProfile() async throws {
        let yaml = """
            teams: [{id: AAAAA11111, name: Team One}]
            apps:
              - {bundleID: one.notes, team: AAAAA11111, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)phone]}}
              - {bundleID: one.notes, team: AAAAA11111, platform: macos, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)desk]}}
            devices:
              - {id: phone, osVersion: 17, apps: [one.notes]}
              - {id: mac, platform: macos, osVersion: "14.5", apps: [one.notes]}
            """
        try await withBuiltWorld(yaml) { built in
            let verifier = BundleVerifier(trust: try built.trustStore())
            let phone = verifier.verify(bundleAt: built.file(WorldLayout.bundle(try BundleID("one.notes"))), platform: .ios)
            let mac = verifier.verify(bundleAt: built.file(WorldLayout.bundle(try BundleID("one.notes"), macBuild: true)), platform: .macos)
            #expect(phone.valid && mac.valid, "\(phone.reasons) \(mac.reasons)")
            #expect(phone.accessGroups.map(\.rawValue).first == "AAAAA11111.phone")
            #expect(mac.accessGroups.map(\.rawValue).first == "AAAAA11111.desk")
            #expect(phone.builtFor == .ios && mac.builtFor == .macos)
            let profile = try ProvisioningProfile(
                propertyList: SignedMessage(der: Data(contentsOf: built.file("profiles/macos/one.notes.mobileprovision"))).content
            )
            #expect(profile.isForMac, "the Mac build's own profile: \(profile.platforms)")
        }
    }

    @Test func keysAreReadableByTheirOwnerOnly() async throws {
        try await withBuiltWorld { built in
            let keys = try Self.snapshot(built.layout.root).keys.filter { $0.hasSuffix(".key") }
            #expect(keys.count > 10)
            for key in keys {
                let attributes = try FileManager.default.attributesOfItem(atPath: built.file(key).path)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(key)")
            }
        }
    }

    @Test func profilesCarryWhatApplesDo() async throws {
        try await withBuiltWorld { built in
            let der = try Data(contentsOf: built.file("profiles/one.seeded.mobileprovision"))
            let message = try SignedMessage(der: der)
            let profile = try ProvisioningProfile(propertyList: message.content)
            #expect(profile.appIDName == "seeded")
            #expect(profile.applicationIdentifierPrefixes.map(\.rawValue) == ["CCCCC33333"])
            #expect(profile.teamIdentifiers.map(\.rawValue) == ["AAAAA11111"])
            #expect(profile.teamName == "Team One")
            #expect(profile.entitlements.keychainAccessGroups == ["CCCCC33333.*", "com.apple.token"])
            #expect(profile.entitlements.applicationIdentifier == "CCCCC33333.one.seeded")
            #expect(profile.entitlements.applicationGroups == ["group.one.shared"])
            #expect(profile.entitlements[EntitlementKey.associatedDomains] == .string("*"))
            #expect(profile.kind == .development)
            #expect(profile.provisionedDevices == [TestWorlds.deviceA, TestWorlds.deviceB])
            #expect(profile.expirationDate.timeIntervalSince(profile.creationDate) == 365 * 86_400)
            let team = try Certificate(der: try #require(profile.developerCertificates.first))
            #expect(team.commonName == "Apple Development: Team One (AAAAA11111)")
            #expect(team.teamID?.rawValue == "AAAAA11111")
            #expect(CertificateRole.teamSigning.isMarked(in: team))

            let wildcard = try ProvisioningProfile(
                propertyList: SignedMessage(der: Data(contentsOf: built.file("profiles/one.wildcard.mobileprovision"))).content
            )
            #expect(wildcard.kind == .distribution)
            #expect(wildcard.provisionedDevices == nil)
            #expect(wildcard.appIDPattern?.rawValue == "AAAAA11111.*")
            #expect(wildcard.entitlements.applicationGroups == nil)
            #expect(wildcard.entitlements[EntitlementKey.associatedDomains] == nil)
        }
    }

    @Test func devicesServicesAndWebsitesGetIdentities() async throws {
        try await withBuiltWorld { built in
            let device = try Certificate(pemEncoded: String(decoding: Data(contentsOf: built.file("devices/dev-a/device.pem")), as: UTF8.self))
            #expect(device.commonName == TestWorlds.deviceA)
            #expect(CertificateRole.device.isMarked(in: device))
            #expect(try device.extensions.extendedKeyUsage?.contains(.clientAuth) == true)
            let deviceChain = try Certificate.chain(Data(contentsOf: built.file("devices/dev-a/device-chain.pem")))
            #expect(deviceChain.count == 2)
            // The iCloud account is certified, so keychaind never takes it on the device's word.
            #expect(try DeviceIdentity(certificateDER: Data(device.serializeAsPEM().derBytes))?.iCloudAccount == "alice@example.com")
            let accountless = try Certificate(pemEncoded: String(decoding: Data(contentsOf: built.file("devices/dev-b/device.pem")), as: UTF8.self))
            #expect(try DeviceIdentity(certificateDER: Data(accountless.serializeAsPEM().derBytes))?.iCloudAccount == nil)
            // One identity for each account the device may be signed in to, and one signed out,
            // each with its account's key; a device with no account has nothing to sign out of.
            func account(_ folder: String) throws -> String? {
                let certificate = try Certificate(pemEncoded: String(decoding: Data(contentsOf: built.file("\(folder)/device.pem")), as: UTF8.self))
                #expect(certificate.commonName == TestWorlds.deviceA)
                #expect(try Certificate.chain(Data(contentsOf: built.file("\(folder)/device-chain.pem"))).count == 2)
                return DeviceIdentity(certificateDER: Data(try certificate.serializeAsPEM().derBytes))?.iCloudAccount
            }
            #expect(try account("devices/dev-a/accounts/bob@example.com") == "bob@example.com")
            #expect(try account("devices/dev-a/signed-out") == nil)
            #expect(
                try Data(contentsOf: built.file("devices/dev-a/accounts/bob@example.com/icloud-keychain.key"))
                    == Data(contentsOf: built.file("accounts/bob@example.com/keychain.key"))
            )
            #expect(!FileManager.default.fileExists(atPath: built.file("devices/dev-a/signed-out/icloud-keychain.key").path))
            #expect(!FileManager.default.fileExists(atPath: built.file("devices/dev-b/signed-out").path))

            let web = try built.webTrustStore()
            for (file, host) in [
                ("websites/signed.example.com", "signed.example.com"), ("services/keychaind", "localhost"), ("services/keychaind", "127.0.0.1"),
                ("services/keychaind", "keychaind"), ("services/associationd", "associationd"), ("services/cloudd", "cloudd"),
                ("services/cloudd", "replica-2.cloudd.test"),
            ] {
                let chain = try Certificate.chainDER(Data(contentsOf: built.file("\(file)/fullchain.pem")))
                let evaluation = web.evaluate(chain[0], intermediates: Array(chain.dropFirst()), at: Date(), purpose: .tlsServer(host: host))
                guard case .trusted = evaluation else {
                    Issue.record("\(file) is not a trusted TLS server for \(host): \(evaluation)")
                    continue
                }
            }
        }
    }

    /// Only a replicated service's certificate covers names under it: `*.cloudd.test` is cloudd's,
    /// and keychaind's names no replica.
    @Test func onlyReplicatedServicesCoverTheirReplicasNames() async throws {
        try await withBuiltWorld { built in
            let web = try built.webTrustStore()
            for (file, host) in [("services/keychaind", "replica-2.keychaind.test"), ("services/cloudd", "replica-2.keychaind.test")] {
                let chain = try Certificate.chainDER(Data(contentsOf: built.file("\(file)/fullchain.pem")))
                let evaluation = web.evaluate(chain[0], intermediates: Array(chain.dropFirst()), at: Date(), purpose: .tlsServer(host: host))
                if case .trusted = evaluation { Issue.record("\(file) is trusted for \(host)") }
            }
        }
    }

    /// The signed file is exactly what `openssl smime -sign` makes, and opens with the site's chain.
    @Test func signsAssociationFilesWithOpenSSL() async throws {
        try await withBuiltWorld { built in
            let plain = try Data(contentsOf: built.file("websites/example.com/apple-app-site-association"))
            #expect(String(decoding: plain, as: UTF8.self) == #"{"webcredentials":{"apps":["AAAAA11111.one.good"]}}"#)
            let signed = try SignedMessage(der: Data(contentsOf: built.file("websites/signed.example.com/apple-app-site-association")))
            #expect(String(decoding: signed.content, as: UTF8.self) == #"{"webcredentials":{"apps":["AAAAA11111.one.good"]}}"#)
            let evaluation = try built.webTrustStore().evaluate(
                signed.signerCertificate,
                intermediates: signed.certificates,
                at: Date(),
                purpose: .tlsServer(host: "signed.example.com")
            )
            guard case .trusted = evaluation else {
                Issue.record("the signed AASA does not chain: \(evaluation)")
                return
            }
        }
    }
}

extension Certificate {
    /// Every certificate of a PEM bundle.
    static func chain(_ pem: Data) throws -> [Certificate] {
        try PEMDocument.parseMultiple(pemString: String(decoding: pem, as: UTF8.self)).map { try Certificate(pemDocument: $0) }
    }

    /// Every certificate of a PEM bundle, DER.
    static func chainDER(_ pem: Data) throws -> [Data] {
        try PEMDocument.parseMultiple(pemString: String(decoding: pem, as: UTF8.self)).map { Data($0.derBytes) }
    }
}
