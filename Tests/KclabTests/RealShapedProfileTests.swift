import Foundation
import Testing
import WorldTestSupport

/// A profile shaped as Apple's real ones are, made here with OpenSSL rather than the lab's own
/// signer: a SHA-1 signer (as profiles before 2016 have), its intermediate carried
/// in the envelope, several developer certificates, nested entitlements, and an enterprise
/// profile's ProvisionsAllDevices. `kclab profile show` reads every field of it.
@Suite struct RealShapedProfileTests {
    static func openssl(_ arguments: [String], in folder: URL) throws {
        let result = try runTool("/bin/sh", ["-c", "cd '\(folder.path)' && openssl " + arguments.joined(separator: " ")])
        #expect(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    @Test func readsASHA1SignedEnterpriseProfileWithSeveralCertificates() async throws {
        try await withTemporaryDirectory { folder in
            // A root, an intermediate and a signer, as Apple's chain for profile signing.
            let subject = { (name: String) in "-subj '/CN=\(name)/O=Example Root Authority/C=US'" }
            try Self.openssl(
                ["req -x509 -newkey rsa:2048 -nodes -keyout root.key -out root.pem -days 3650", subject("Test Root CA"), "-sha1"],
                in: folder
            )
            try Self.openssl(["req -newkey rsa:2048 -nodes -keyout mid.key -out mid.csr", subject("Test WWDR CA")], in: folder)
            try Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8).write(to: folder.appending(path: "ca.ext"))
            try Self.openssl(
                ["x509 -req -in mid.csr -CA root.pem -CAkey root.key -CAcreateserial -out mid.pem -days 3000 -extfile ca.ext -sha1"],
                in: folder
            )
            try Self.openssl(
                ["req -newkey rsa:2048 -nodes -keyout signer.key -out signer.csr", subject("Test Provisioning Profile Signing")],
                in: folder
            )
            try Self.openssl(["x509 -req -in signer.csr -CA mid.pem -CAkey mid.key -CAcreateserial -out signer.pem -days 2000 -sha1"], in: folder)
            // Two developer certificates, as a team with two developers has.
            var developers: [Data] = []
            for name in ["iPhone Distribution: Example Inc (ABCDE12345)", "iPhone Developer: Jane Appleseed (FGHIJ67890)"] {
                let file = "dev\(developers.count)"
                try Self.openssl(
                    [
                        "req -x509 -newkey rsa:2048 -nodes -keyout \(file).key -outform DER -out \(file).der -days 365",
                        "-subj '/CN=\(name)/OU=ABCDE12345'",
                    ],
                    in: folder
                )
                developers.append(try Data(contentsOf: folder.appending(path: "\(file).der")))
            }
            let plist: [String: Any] = [
                "AppIDName": "Example Enterprise", "ApplicationIdentifierPrefix": ["ABCDE12345"], "TeamIdentifier": ["ABCDE12345"],
                "TeamName": "Example Inc", "Name": "Example In House", "Platform": ["iOS"], "UUID": "2B9C1C9E-6A41-4F7A-9E7E-2D0C5D3A1B11",
                "CreationDate": Date().addingTimeInterval(-86_400), "ExpirationDate": Date().addingTimeInterval(300 * 86_400),
                "ProvisionsAllDevices": true, "DeveloperCertificates": developers, "TimeToLive": 347, "Version": 1,
                "Entitlements": [
                    "application-identifier": "ABCDE12345.com.example.inhouse", "com.apple.developer.team-identifier": "ABCDE12345",
                    "keychain-access-groups": ["ABCDE12345.*"], "get-task-allow": false,
                    "com.apple.developer.icloud-container-environment": ["Production"],
                    "com.apple.developer.ubiquity-kvstore-identifier": "ABCDE12345.*",
                ] as [String: Any],
            ]
            let content = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            try content.write(to: folder.appending(path: "content.plist"))
            try Self.openssl(
                [
                    "cms -sign -binary -nodetach -outform DER -md sha1 -in content.plist -signer signer.pem -inkey signer.key",
                    "-certfile mid.pem -out profile.mobileprovision",
                ],
                in: folder
            )
            let profile = folder.appending(path: "profile.mobileprovision").path
            let shown = try run(kclab, ["profile", "show", profile, "--json", "--trust", folder.appending(path: "root.pem").path])
            #expect(shown.status == 0, "\(shown.stdout)\(shown.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(json["name"] as? String == "Example In House" && json["provisionsAllDevices"] as? Bool == true)
            #expect(json["provisionedDevices"] == nil)
            let certificates = try #require(json["developerCertificates"] as? [[String: Any]])
            #expect(
                certificates.compactMap { $0["commonName"] as? String } == [
                    "iPhone Distribution: Example Inc (ABCDE12345)", "iPhone Developer: Jane Appleseed (FGHIJ67890)",
                ]
            )
            let entitlements = try #require(json["entitlements"] as? [String: Any])
            #expect(entitlements["com.apple.developer.icloud-container-environment"] as? [String] == ["Production"])
            #expect((json["signer"] as? [String: Any])?["commonName"] as? String == "Test Provisioning Profile Signing")
            let verdict = try #require(json["verdict"] as? [String: Any])
            #expect(verdict["chain"] as? String == "trusted" && verdict["current"] as? Bool == true, "\(verdict)")
            #expect(verdict["trustedChain"] as? [String] == ["Test Provisioning Profile Signing", "Test WWDR CA", "Test Root CA"])
            let text = try run(kclab, ["profile", "show", profile])
            #expect(
                text.stdout.contains("kind: enterprise (in-house): any device") && text.stdout.contains("devices: all (enterprise)"),
                "\(text.stdout)"
            )
        }
    }
}
