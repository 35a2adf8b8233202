import AppIdentity
import Foundation
import LabErrors
import Testing

@Suite struct PropertyListTests {
    @Test func profileRoundTrips() throws {
        let profile = ProvisioningProfile(
            name: "iOS Team Provisioning Profile: com.example.AppOne",
            appIDName: "App One",
            applicationIdentifierPrefixes: [try TeamID("ABCDE12345")],
            teamIdentifiers: [try TeamID("ABCDE12345")],
            teamName: "Example Inc.",
            platforms: ["iOS"],
            entitlements: Entitlements([
                "keychain-access-groups": .array([.string("ABCDE12345.*")]),
                "get-task-allow": .bool(true),
            ]),
            developerCertificates: [Data([1, 2, 3])],
            provisionedDevices: ["00008030-001A2B3C4D5E802E"],
            creationDate: Date(timeIntervalSince1970: 1_700_000_000),
            expirationDate: Date(timeIntervalSince1970: 1_731_536_000),
            uuid: UUID().uuidString.lowercased()
        )
        var decoded = try ProvisioningProfile(propertyList: profile.propertyList)
        #expect(decoded.otherValues["TimeToLive"] == .integer(365) && decoded.otherValues["Version"] == .integer(1), "kept as written")
        decoded.otherValues = [:]
        #expect(decoded == profile)
        #expect(decoded.kind == .development)
        #expect(decoded.provisions(device: "00008030-001a2b3c4d5e802e"))
        #expect(!decoded.provisions(device: "00008030-001A2B3C4D5E8000"))
        let text = String(decoding: profile.propertyList, as: UTF8.self)
        for key in [
            "AppIDName", "ApplicationIdentifierPrefix", "TeamIdentifier", "Entitlements", "DeveloperCertificates", "ProvisionedDevices",
            "CreationDate", "ExpirationDate", "UUID",
        ] {
            #expect(text.contains("<key>\(key)</key>"), "missing \(key)")
        }
    }

    @Test func distributionProfilesProvisionEveryDevice() throws {
        var profile = try ProvisioningProfile(propertyList: PropertyListTests.minimalProfile)
        profile.provisionedDevices = nil
        #expect(profile.kind == .distribution)
        #expect(profile.provisions(device: "ANY"))
    }

    @Test(arguments: [
        Data("not a plist".utf8),
        Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><array/></plist>".utf8),
        Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Name</key><string>x</string></dict></plist>".utf8),
    ])
    func rejectsMalformedProfiles(_ data: Data) {
        #expect(throws: IdentityError(.malformedPropertyList, "")) { try ProvisioningProfile(propertyList: data) }
    }

    @Test func codeDirectoryRoundTrips() throws {
        let directory = CodeDirectory(
            identifier: try BundleID("com.example.AppOne"),
            teamIdentifier: try TeamID("ABCDE12345"),
            entitlements: Entitlements(["application-identifier": .string("ABCDE12345.com.example.AppOne")]),
            executableDigest: Data(repeating: 1, count: 32),
            infoPlistDigest: Data(repeating: 2, count: 32),
            profileDigest: Data(repeating: 3, count: 32)
        )
        #expect(try CodeDirectory(propertyList: directory.propertyList) == directory)
    }

    @Test func codeDirectoryRejectsShortDigests() throws {
        var plist = try PlistValue.dictionary(
            fromPropertyList: CodeDirectory(
                identifier: try BundleID("a.b"),
                teamIdentifier: try TeamID("ABCDE12345"),
                entitlements: Entitlements(),
                executableDigest: Data(repeating: 1, count: 32),
                infoPlistDigest: Data(repeating: 2, count: 32),
                profileDigest: Data(repeating: 3, count: 32)
            ).propertyList
        )
        plist["ExecutableSHA256"] = .data(Data([1]))
        #expect(throws: IdentityError(.malformedPropertyList, "")) { try CodeDirectory(propertyList: PlistValue.xmlPropertyList(plist)) }
    }

    static let minimalProfile = Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>Name</key><string>p</string><key>AppIDName</key><string>a</string>
        <key>ApplicationIdentifierPrefix</key><array><string>ABCDE12345</string></array>
        <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
        <key>TeamName</key><string>t</string><key>Platform</key><array><string>iOS</string></array>
        <key>Entitlements</key><dict/><key>DeveloperCertificates</key><array/>
        <key>CreationDate</key><date>2026-01-01T00:00:00Z</date>
        <key>ExpirationDate</key><date>2027-01-01T00:00:00Z</date>
        <key>UUID</key><string>6F9619FF-8B86-D011-B42D-00C04FC964FF</string>
        </dict></plist>
        """.utf8
    )
}
