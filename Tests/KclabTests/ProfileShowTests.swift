import Foundation
import Testing
import WorldTestSupport

/// `kclab profile show` reads a profile field for field as `openssl cms -verify -noverify` plus a
/// property-list reader do, checks the signer's chain only against roots given, and the dates.
@Suite struct ProfileShowTests {
    @Test func readsAProfileAsOpenSSLDoesAndJudgesItsChainAndDates() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "world.yaml")
            try Data(TestWorlds.refusals.utf8).write(to: world)
            let out = folder.appending(path: "out").path
            #expect(try run(kclab, ["world", "build", world.path, "--out", out]).status == 0)
            let profile = "\(out)/profiles/one.good.mobileprovision"

            // What OpenSSL reads out of the envelope, without checking the chain.
            let content = folder.appending(path: "content.plist")
            let opened = try runTool("openssl", ["cms", "-verify", "-noverify", "-inform", "DER", "-in", profile, "-out", content.path])
            #expect(opened.status == 0, "\(opened.stderr)")
            let plist = try #require(
                try PropertyListSerialization.propertyList(from: Data(contentsOf: content), format: nil) as? [String: Any]
            )

            let shown = try run(kclab, ["profile", "show", profile, "--json"])
            #expect(shown.status == 0, "\(shown.stdout)\(shown.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(json["name"] as? String == plist["Name"] as? String)
            let uuid = try #require(plist["UUID"] as? String)
            #expect(json["uuid"] as? String == uuid && uuid == uuid.lowercased(), "the UUID as written, lower case as Apple's")
            #expect((json["otherKeys"] as? [String: Any])?["TimeToLive"] as? Int == plist["TimeToLive"] as? Int)
            #expect(json["teamIdentifier"] as? [String] == plist["TeamIdentifier"] as? [String])
            #expect(json["applicationIdentifierPrefix"] as? [String] == plist["ApplicationIdentifierPrefix"] as? [String])
            #expect(json["provisionedDevices"] as? [String] == plist["ProvisionedDevices"] as? [String])
            let entitlements = try #require(plist["Entitlements"] as? [String: Any])
            let shownEntitlements = try #require(json["entitlements"] as? [String: Any])
            #expect(Set(shownEntitlements.keys) == Set(entitlements.keys))
            #expect(shownEntitlements["keychain-access-groups"] as? [String] == entitlements["keychain-access-groups"] as? [String])

            // Each developer certificate's SHA-256 fingerprint, as openssl x509 -fingerprint gives it.
            let certificates = try #require(plist["DeveloperCertificates"] as? [Data])
            let shownCertificates = try #require(json["developerCertificates"] as? [[String: Any]])
            #expect(shownCertificates.count == certificates.count && !certificates.isEmpty)
            let der = folder.appending(path: "developer.der")
            try certificates[0].write(to: der)
            let fingerprint = try runTool("openssl", ["x509", "-inform", "DER", "-in", der.path, "-noout", "-fingerprint", "-sha256"])
            let expected = fingerprint.stdout.split(separator: "=").last.map { $0.replacingOccurrences(of: ":", with: "") }
            #expect(shownCertificates[0]["sha256"] as? String == expected?.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect((json["verdict"] as? [String: Any])?["chain"] as? String == "not-checked")

            // The chain: trusted with the world's root, refused with a look-alike root.
            let trusted = try run(kclab, ["profile", "show", profile, "--trust", "\(out)/trust/root-ca.pem"])
            #expect(trusted.status == 0 && trusted.stdout.contains("chain: trusted"), "\(trusted.stdout)\(trusted.stderr)")
            let untrustedRoot = try #require(
                FileManager.default.subpaths(atPath: "\(out)/untrusted")?.first { $0.hasSuffix(".pem") && !$0.contains("key") }
            )
            let untrusted = try run(kclab, ["profile", "show", profile, "--trust", "\(out)/untrusted/\(untrustedRoot)"])
            #expect(untrusted.status == 0 && untrusted.stdout.contains("chain: NOT trusted"), "\(untrusted.stdout)\(untrusted.stderr)")

            // The dates, at a moment after expiry: show reports, lint decides.
            let late = try run(kclab, ["profile", "show", profile, "--date", "2199-01-01T00:00:00Z"])
            #expect(late.status == 0 && late.stdout.contains("EXPIRED"), "\(late.stdout)")

            // A profile changed after signing is shown, with a verdict in a person's words.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: profile))
            let name = try #require(bytes.range(of: Data("one.good".utf8)))
            bytes[name.lowerBound] = UInt8(ascii: "X")
            let tampered = folder.appending(path: "tampered.mobileprovision")
            try bytes.write(to: tampered)
            let changed = try run(kclab, ["profile", "show", tampered.path])
            #expect(
                changed.status == 0
                    && changed.stdout.contains("signature: NOT valid: the profile was changed after Apple signed it: download it again"),
                "\(changed.stdout)\(changed.stderr)"
            )
            #expect(!changed.stdout.contains("OpenSSL") && !changed.stderr.contains("error:"), "no OpenSSL error stack")
            let claims = folder.appending(path: "App.entitlements")
            try Data(LintCommandTests.entitlements(["$(AppIdentifierPrefix)one.shared"]).utf8).write(to: claims)
            let linted = try run(kclab, ["lint", "--entitlements", claims.path, "--profile", tampered.path, "--json"])
            #expect(linted.status == 1, "\(linted.stdout)\(linted.stderr)")
            let findings = try #require(try JSONSerialization.jsonObject(with: Data(linted.stdout.utf8)) as? [[String: Any]])
            #expect(findings.first { $0["rule"] as? String == "signature" }?["result"] as? String == "fail", "\(findings)")
        }
    }

    /// A file that is not a profile is named for what it is.
    @Test(arguments: [
        (
            "App.entitlements",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)x</string></array></dict></plist>",
            "this is an entitlements property list, not a signed profile: give the .mobileprovision"
        ),
        ("aasa.json", "{\"applinks\": {}}", "this is JSON, not a signed profile"),
        ("cert.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "this is a PEM file"),
        ("random.bin", "\u{01}\u{02}garbage", "this is not a signed profile (not a CMS message)"),
    ])
    func aFileThatIsNotAProfileIsNamedForWhatItIs(name: String, content: String, message: String) async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: name)
            try Data(content.utf8).write(to: file)
            let shown = try run(kclab, ["profile", "show", file.path])
            #expect(shown.status == 2 && shown.stderr.contains(message), "\(shown.stderr)")
            #expect(!shown.stderr.contains("error:0"), "no OpenSSL error stack: \(shown.stderr)")
        }
    }
}

/// `kclab lint` against a profile the world signed: a matching .entitlements file passes, a group
/// the profile does not grant fails with exit 1 and says what to change.
@Suite struct LintCommandTests {
    static func entitlements(_ groups: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>keychain-access-groups</key>
            <array>\(groups.map { "<string>\($0)</string>" }.joined())</array>
        </dict>
        </plist>
        """
    }

    @Test func lintsAnEntitlementsFileAgainstAProfile() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "world.yaml")
            try Data(TestWorlds.refusals.utf8).write(to: world)
            let out = folder.appending(path: "out").path
            #expect(try run(kclab, ["world", "build", world.path, "--out", out]).status == 0)
            let profile = "\(out)/profiles/one.good.mobileprovision"
            let good = folder.appending(path: "Good.entitlements")
            try Data(Self.entitlements(["$(AppIdentifierPrefix)one.shared"]).utf8).write(to: good)
            let passed = try run(kclab, ["lint", "--entitlements", good.path, "--profile", profile])
            #expect(passed.status == 0 && passed.stdout.contains("PASS keychain-access-groups"), "\(passed.stdout)\(passed.stderr)")

            let bad = folder.appending(path: "Bad.entitlements")
            try Data(Self.entitlements(["OTHER98765.one.shared"]).utf8).write(to: bad)
            let failed = try run(kclab, ["lint", "--entitlements", bad.path, "--profile", profile, "--json"])
            #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
            let findings = try #require(try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [[String: Any]])
            let group = try #require(findings.first { $0["rule"] as? String == "keychain-access-groups" })
            #expect(group["result"] as? String == "fail" && (group["detail"] as? String)?.contains("OTHER98765.one.shared") == true)
            #expect((group["fix"] as? String)?.isEmpty == false)
            #expect((group["detail"] as? String)?.contains("did you mean") == false, "another team's group is not a missing prefix")

            // A signed bundle: its signature's entitlements against its embedded profile.
            let bundle = try run(kclab, ["lint", "\(out)/apps/one.good.app"])
            #expect(
                bundle.status == 0 && bundle.stdout.contains("PASS application-identifier: AAAAA11111.one.good"),
                "\(bundle.stdout)\(bundle.stderr)"
            )
            let both = try run(kclab, ["lint", "\(out)/apps/one.good.app", "--profile", profile])
            #expect(both.status == 2, "a bundle, or an entitlements file and a profile: \(both.stderr)")
        }
    }
}
