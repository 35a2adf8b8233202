import Foundation
import Testing
import WorldTestSupport

/// `kclab world import` on the example projects, then `kclab world build` and `kclab bundle
/// verify`: each imported target ends up with the access groups Apple forms for it, in Apple's
/// order (its keychain-access-groups, its application identifier, its app groups).
@Suite struct WorldImportCommandTests {
    /// The access groups `kclab bundle verify` prints for the bundle at `path`.
    static func accessGroups(_ path: String, trust: String) throws -> [String]? {
        let verified = try run(kclab, ["bundle", "verify", path, "--trust", trust])
        let json = try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any]
        guard json?["valid"] as? Bool == true else { return nil }
        return json?["accessGroups"] as? [String]
    }

    @Test func importedProjectsGetTheGroupsAppleForms() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "journal.yaml").path
            let out = folder.appending(path: "built").path
            let imported = try run(kclab, ["world", "import", "docs/examples/Journal/Journal.xcodeproj", "--out", world])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("3 apps from the Xcode project Journal"), "\(imported.stdout)")
            #expect(try run(kclab, ["world", "build", world, "--out", out]).status == 0)
            #expect(
                try Self.accessGroups("\(out)/apps/com.example.journal.app", trust: out)
                    == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal", "group.com.example.journal"]
            )
            // The Mac build's own entitlements: its app group carries the team prefix.
            #expect(
                try Self.accessGroups("\(out)/apps/macos/com.example.journal.app", trust: out)
                    == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal", "ABCDE12345.com.example.journal"]
            )
            #expect(
                try Self.accessGroups("\(out)/apps/com.example.journal.Share.app", trust: out)
                    == ["ABCDE12345.com.example.journal.shared", "ABCDE12345.com.example.journal.Share", "group.com.example.journal"]
            )
        }
    }

    /// docs/examples/Vault: a password manager's shape (the team and bundle ID prefix in an
    /// .xcconfig, an AutoFill extension sharing the app's keychain group and app group). The
    /// extension's AutoFill capability is granted as Xcode's automatic signing registers it, so
    /// both install.
    @Test func aProjectsCapabilitiesAreGrantedAsXcodeRegistersThem() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "vault.yaml").path
            let out = folder.appending(path: "built").path
            let imported = try run(kclab, ["world", "import", "docs/examples/Vault/Vault.xcodeproj", "--out", world])
            #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
            #expect(try run(kclab, ["world", "build", world, "--out", out]).status == 0)
            #expect(
                try Self.accessGroups("\(out)/apps/com.example.vault.app", trust: out)
                    == ["VAULT12345.com.example.vault.SharedItems", "VAULT12345.com.example.vault", "group.com.example.vault"]
            )
            #expect(
                try Self.accessGroups("\(out)/apps/com.example.vault.AutoFill.app", trust: out)
                    == ["VAULT12345.com.example.vault.SharedItems", "VAULT12345.com.example.vault.AutoFill", "group.com.example.vault"],
                "the AutoFill capability is in its profile"
            )
        }
    }

    /// One app from a profile the lab signed, with its entitlements file: the world signs it as
    /// the profile says, and the groups come out as the profile's app would hold them.
    @Test func aProfileAndItsEntitlementsMakeOneApp() async throws {
        try await withTemporaryDirectory { folder in
            let demo = folder.appending(path: "demo").path
            #expect(try run(kclab, ["world", "build", "Tools/worlds/demo.yaml", "--out", demo]).status == 0)
            let world = folder.appending(path: "app-one.yaml").path
            let imported = try run(
                kclab,
                [
                    "world", "import", "--profile", "\(demo)/profiles/com.example.AppOne.mobileprovision", "--entitlements",
                    "docs/examples/AppOne.entitlements", "--out", world,
                ]
            )
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("the world's iPhone and Mac stand in for them"), "\(imported.stderr)")
            let out = folder.appending(path: "built").path
            #expect(try run(kclab, ["world", "build", world, "--out", out]).status == 0)
            #expect(
                try Self.accessGroups("\(out)/apps/com.example.AppOne.app", trust: out)
                    == ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppOne", "group.com.example.AppSuite"]
            )

            let refused = try run(
                kclab,
                ["world", "import", "--profile", "\(demo)/profiles/com.example.AppOne.mobileprovision", "--bundle-id", "com.other.app"]
            )
            #expect(refused.status != 0 && refused.stderr.contains("is not the profile's App ID"), "\(refused.stderr)")
            let notAProfile = try run(kclab, ["world", "import", "--profile", "docs/examples/AppOne.entitlements"])
            #expect(notAProfile.status == 2 && notAProfile.stderr.contains("not a signed profile"), "\(notAProfile.stderr)")

            // A profile changed after signing grants nothing a device would accept: no world.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(demo)/profiles/com.example.AppOne.mobileprovision"))
            let group = try #require(bytes.range(of: Data("ABCDE12345.*".utf8)))
            bytes[group.lowerBound] = UInt8(ascii: "X")
            let edited = folder.appending(path: "edited.mobileprovision")
            try bytes.write(to: edited)
            let changed = try run(kclab, ["world", "import", "--profile", edited.path, "--out", folder.appending(path: "edited.yaml").path])
            #expect(changed.status == 1 && changed.stderr.contains("the profile was changed after Apple signed it"), "\(changed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "edited.yaml").path))
        }
    }
}
