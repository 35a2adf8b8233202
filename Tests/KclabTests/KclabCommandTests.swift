import Foundation
import LabControl
import Testing
import WorldTestSupport

/// `kclab` as a user runs it: the built binary, its output and its exit status.
@Suite struct KclabCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func buildsThenVerifies() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "world.yaml")
            try Data(TestWorlds.refusals.utf8).write(to: world)
            let out = folder.appending(path: "out").path
            var result = try run(kclab, ["world", "build", world.path, "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("18 apps"), "17 declared, and the browser a world with websites gets")
            #expect(FileManager.default.fileExists(atPath: "\(out)/apps/com.apple.mobilesafari.app"))
            result = try run(kclab, ["world", "build", world.path, "--out", out])
            #expect(result.stdout.contains("(0 files written"), "\(result.stdout)")

            result = try run(kclab, ["bundle", "verify", "\(out)/apps/one.good.app", "--trust", out, "--device", TestWorlds.deviceA])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let good = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(good["valid"] as? Bool == true)
            #expect(good["appID"] as? String == "AAAAA11111.one.good")
            #expect(good["teamID"] as? String == "AAAAA11111")
            #expect(
                good["accessGroups"] as? [String] == ["AAAAA11111.one.shared", "AAAAA11111.one.other", "AAAAA11111.one.good", "group.one.shared"]
            )
            #expect(good["associatedDomains"] as? [String] == ["webcredentials:example.com", "applinks:example.com"])
            #expect((good["reasons"] as? [String])?.isEmpty == true)
            #expect(result.stdout.hasPrefix("{\n  \"valid\": true,"), "the documented key order")

            result = try run(
                kclab,
                ["bundle", "verify", "\(out)/apps/one.otherDevice.app", "--trust", "\(out)/trust", "--device", TestWorlds.deviceA]
            )
            #expect(result.status == 1)
            let refused = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(refused["valid"] as? Bool == false)
            #expect(refused["accessGroups"] as? [String] == [])
            #expect((refused["reasons"] as? [String])?.first?.hasPrefix("device-not-provisioned:") == true)
        }
    }

    /// `kclab aasa check --file` judges a local file offline, as a site serving it would be judged.
    @Test func checksALocalAssociationFile() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: "aasa.json")
            try Data(
                #"{"applinks": {"details": [{"appIDs": ["VA3SY54YU8.com.example.app"], "components": [{"/": "/app/*", "comment": "a note"}]}]}}"#.utf8
            ).write(to: file)
            let base = ["aasa", "check", "example.org", "--file", file.path, "--service", "applinks", "--app", "VA3SY54YU8.com.example.app"]
            let matched = try run(kclab, base + ["--match", "https://example.org/app/42", "--json"])
            #expect(matched.status == 0, "\(matched.stdout)\(matched.stderr)")
            #expect(matched.stdout.contains(#""verdict": "approved""#) && matched.stdout.contains("url-match"), "\(matched.stdout)")
            // Nothing was fetched: the transport rules did not apply, and say so.
            let text = try run(kclab, base)
            #expect(text.stdout.contains("N/A  https-trust: not applicable") && !text.stdout.contains("PASS https-trust"), "\(text.stdout)")
            #expect(text.stdout.contains("N/A  http-status"))
            // iOS 12 reads applinks' appID and paths only: this file (appIDs, components) approves no app there.
            let old = try run(kclab, base + ["--os", "ios:12"])
            #expect(old.status == 1 && old.stdout.contains("FAIL app-listed"), "\(old.stdout)")
            let other = try run(kclab, ["aasa", "check", "example.org", "--file", file.path, "--service", "applinks", "--app", "ZZZZZZZZZZ.other"])
            #expect(other.status == 1 && other.stdout.contains("FAIL app-listed"), "\(other.stdout)")
            try Data("{\"applinks\": {\"details\": [,]}}".utf8).write(to: file)
            let broken = try run(kclab, base)
            #expect(broken.status == 1 && broken.stdout.contains("json-syntax") && broken.stdout.contains("1:"), "\(broken.stdout)")
        }
    }

    /// Bad input ends `kclab aasa check` with a status and a message, never by a signal (an HTTP
    /// client dropped while running used to end it with SIGILL).
    @Test(arguments: [
        ["--file", "/nonexistent/aasa.json"],
        ["--cdn"],
        ["--file", "/nonexistent/aasa.json", "--cdn"],
        ["--cdn", "--state", "/nonexistent/state"],
        ["--timeout", "0"],
    ])
    func aasaCheckEndsWithAStatusOnBadInput(_ arguments: [String]) async throws {
        let result = try run(kclab, ["aasa", "check", "example.com"] + arguments)
        #expect(result.status == 2, "\(arguments): status \(result.status)\n\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("rror"), "\(result.stderr.prefix(400))")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrace"))
    }

    /// An argument that is not UTF-8 is refused by name, not read with U+FFFD in it.
    @Test func refusesArgumentsThatAreNotUTF8() throws {
        let script =
            "import subprocess, sys; r = subprocess.run([sys.argv[1], b'bundle', b'verify', b'caf\\xe9', b'--trust', b'x'], "
            + "capture_output=True); print(r.returncode); print(r.stderr.decode(errors='replace'))"
        let result = try runTool("python3", ["-c", script, kclab.path])
        let lines = result.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
        #expect(lines.first == "2", "\(result.stdout)\(result.stderr)")
        #expect(lines.last?.contains("argument 3 is not valid UTF-8") == true, "\(result.stdout)")
    }

    @Test func reportsUsageErrors() async throws {
        try await withTemporaryDirectory { folder in
            var result = try run(kclab, ["bundle", "verify", folder.path])
            #expect(result.status == 2, "a missing --trust is a usage error")
            result = try run(kclab, ["bundle", "verify", folder.path, "--trust", folder.appending(path: "nowhere").path])
            #expect(result.status == 2)
            #expect(result.stderr.contains("no trusted root"))
            result = try run(kclab, ["world", "build"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("Usage"))
            // A mistyped subcommand gets the one meant; a word far from every one gets the list.
            result = try run(kclab, ["app", "cal"])
            #expect(result.status == 2 && result.stderr.contains("did you mean 'kclab app call'?"), "\(result.stderr)")
            result = try run(kclab, ["zzzz"])
            #expect(result.stderr.contains("one of world, bundle"), "\(result.stderr)")
            // aasa check against a state folder where no lab was built says so.
            result = try run(kclab, ["aasa", "check", "example.com", "--state", folder.path])
            #expect(result.status == 2 && result.stderr.contains("no lab was built in"), "\(result.stderr)")
            // A lab that was built but whose websites do not answer: is it up?
            let world = folder.appending(path: "world.yaml")
            try Data(TestWorlds.refusals.utf8).write(to: world)
            #expect(try run(kclab, ["world", "build", world.path, "--out", folder.appending(path: "world").path]).status == 0)
            try FileManager.default.createDirectory(at: folder.appending(path: "websites"), withIntermediateDirectories: true)
            try Data(#"{"address": "127.0.0.1", "port": 1, "hosts": ["example.com"]}"#.utf8).write(to: folder.appending(path: "websites/site.json"))
            result = try run(kclab, ["aasa", "check", "example.com", "--state", folder.path, "--timeout", "5"])
            #expect(result.status == 1 && result.stderr.contains("is the lab up? kclab status --state"), "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func refusesABadWorldNamingFileLineAndKey() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "bad.yaml")
            try Data("teams:\n  - id: ABCDE12345\n    colour: blue\n".utf8).write(to: world)
            let result = try run(kclab, ["world", "build", world.path, "--out", folder.appending(path: "out").path])
            #expect(result.status == 1)
            #expect(result.stderr.contains("bad.yaml:3:5: teams[0]: unknown key 'colour'"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "out").path), "nothing is built from a bad world")
        }
    }

    /// OpenSSL accepts what KeychainLab signs (the foundation issue's interoperability check).
    @Test func openSSLVerifiesProfilesAndCodeSignatures() async throws {
        try await withBuiltWorld { built in
            let root = built.file("trust/root-ca.pem").path
            for file in [
                "profiles/one.good.mobileprovision", "apps/one.good.app/_CodeSignature/CodeSignature", "apps/one.seeded.app/embedded.mobileprovision",
            ] {
                let result = try runTool(
                    "openssl",
                    ["cms", "-verify", "-CAfile", root, "-inform", "DER", "-in", built.file(file).path, "-out", "/dev/null"]
                )
                #expect(result.status == 0, "\(file): \(result.stderr)")
                #expect(result.stderr.contains("Verification successful"))
            }
            // And refuses what a look-alike CA signed.
            let result = try runTool(
                "openssl",
                [
                    "cms", "-verify", "-CAfile", root, "-inform", "DER", "-in", built.file("profiles/one.untrustedProfile.mobileprovision").path,
                    "-out", "/dev/null",
                ]
            )
            #expect(result.status != 0)
        }
    }

    @Test func demoPlaysTheSeedsStories() async throws {
        try await withTemporaryDirectory { folder in
            let markdown = folder.appending(path: "walkthrough.md")
            // Every secret the demo hands an app, watched for in every process's arguments while it runs.
            let stories = DemoStory.seeds + DemoStory.sharedCredentials + DemoStory.mac + DemoStory.passkeys + DemoStory.android
            let secrets = Set(stories.flatMap(\.steps).compactMap(\.input)).union(["B0b-builds-things"])
            #expect(secrets.count >= 8)
            let watcher = CommandLineWatcher(secrets: secrets, scope: folder.path)
            watcher.start()
            let result = try run(
                kclab,
                [
                    "demo", "--world", Self.repository.appending(path: "Tools/worlds/demo.yaml").path, "--state", folder.path, "--markdown",
                    markdown.path, "--keep",
                ]
            )
            let seen = watcher.stop()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(seen.scans > 10, "the watcher looked while the demo ran")
            #expect(seen.leaks.isEmpty, "secrets in process arguments: \(seen.leaks)")
            // docs/walkthrough.md cannot go stale: it is what this run writes (make walkthrough).
            let committed = try String(contentsOf: Self.repository.appending(path: "docs/walkthrough.md"), encoding: .utf8)
            let written = try String(contentsOf: markdown, encoding: .utf8)
            #expect(written == committed, "docs/walkthrough.md differs from what the demo writes now: run make walkthrough")
            let output = result.stdout
            #expect(
                output.contains("com.example.AppOne: ABCDE12345.com.example.SharedItems, ABCDE12345.com.example.AppOne, group.com.example.AppSuite")
            )
            #expect(output.contains("com.useyourloaf.amazingApp1: ABC1234DEF.amazingAppFamily, ABC1234DEF.com.useyourloaf.amazingApp1"))
            #expect(output.contains("com.other.Thief: REFUSED at install: entitlement-not-allowed"))
            #expect(output.contains("com.example.AppTwo read the token: s3cret-token"))
            #expect(output.contains("com.example.AppTwo could not find the private item"))
            #expect(output.contains("com.example.AppOne.Suite read the suite data: suite-settings"))
            #expect(
                output.contains("[iphone-alice] com.other.Snooper may not read ABCDE12345.com.example.SharedItems: errSecMissingEntitlement (-34018)")
            )
            #expect(output.contains("[ipad-alice] com.other.Snooper could not find the token in ABCDE12345.com.example.SharedItems"))
            #expect(output.contains("KeyChainAccessGroupHelper: prefix BNCDNG2016, default group BNCDNG2016.com.bencoding.awesome-group"))
            #expect(output.contains("com.useyourloaf.amazingApp2 read the family item: family-secret"))
            #expect(output.contains("installed the update of com.example.LegacyNotes: app ID now ABCDE12345.com.example.LegacyNotes"))
            #expect(output.contains("com.example.LegacyNotes could not find the token (errSecItemNotFound)"))
            #expect(output.contains("SecItemAdd -> -34018, SecItemCopyMatching -> -34018"))
            #expect(output.contains("D3KQX62K1A.com.example.DemoAdminApp webcredentials:example.com: approved"))
            // Seed 002, end to end.
            #expect(output.contains("com.example.DemoApp: trying alice from shared web credentials (example.com)"))
            #expect(output.contains("PROMPT Sign in to “DemoApp” with a saved password? [Cancel] → the user: approve"))
            #expect(output.contains("com.example.DemoAdminApp: trying alice from the keychain"))
            #expect(output.contains("[ipad-alice] PROMPT Select a Saved Password to Use With “DemoApp” [Not Now] → the user: decline"))
            #expect(output.contains("com.example.DemoApp: trying alice from the user"))
            #expect(output.contains("PROMPT “DemoApp” Would Like to Update the Saved Password for “example.com” [Update Password | Not Now]"))
            #expect(output.contains("AutoFill: alice at example.com filled in from saved passwords\n   signed in to example.com as alice"))
            #expect(output.contains("PROMPT “DemoApp” Would Like to Delete the Saved Password for “example.com”"))
            #expect(output.contains("[iphone-alice] no saved passwords"))
            // A Mac's login keychain: the prompt once, Always Allow, then none.
            #expect(output.contains("com.example.MacNotes read the mail password: imap-s3cret\n   [mac-alice] PROMPT Notes wants to use"))
            #expect(output.components(separatedBy: "wants to use your confidential information").count == 2, "one prompt only")
            // Locked by an app, the login keychain opens with the password the user types.
            #expect(output.contains("com.example.MacMail locked the login keychain (SecKeychainLock)"))
            #expect(
                output.contains(
                    "PROMPT Notes wants to use the “login” keychain. Please enter the keychain password. [OK | Cancel] → the user: approve"
                )
            )
            // Passkeys: made on the iPhone, used on the Mac; refused for an unlisted app, a cancel, iOS 12.
            #expect(output.contains("com.example.DemoApp: created carol on example.com with a passkey"))
            #expect(output.contains("[mac-alice] com.example.DemoApp: signed in to example.com as carol with a passkey"))
            #expect(output.contains("Application with identifier OTHER98765.com.other.Snooper is not associated with domain example.com"))
            #expect(output.contains("ASAuthorizationError.canceled (1001)"))
            #expect(output.contains("[ipad-alice] com.example.DemoApp: no passkey sign-in: ASAuthorizationError.notHandled (1003)"))
            // The same sites for Android: linked on example.com, the upload key on www, no file on support.
            #expect(output.contains("PASS linked: https://example.com links com.example.demo"))
            #expect(output.contains("the file lists com.example.demo under \(DemoStory.androidUploadKey) only"))
            #expect(output.contains("https://support.example.com/.well-known/assetlinks.json answered 404"))
            #expect(output.contains("FAIL shared-credentials: webcredentials lists D3KQX62K1A.com.example.DemoApp, but no get_login_creds"))
            // --keep: the lab stays up, and its console has every story's decisions (the latest 1,000).
            let lab = LabState(root: folder)
            let url = try #require(lab.consoleURL)
            #expect(
                output.contains("Console: \(url)\n") && output.contains("The demo lab keeps running: its console is at \(url)."),
                "\(output.prefix(600))"
            )
            #expect(output.contains("Stop it with: kclab down --state \(folder.path)"))
            let jar = folder.appending(path: "cookies.txt").path
            let base = String(url[..<(try #require(url.range(of: "/?token="))).lowerBound])
            _ = try runTool("curl", ["-s", "--max-time", "10", "-c", jar, "-o", "/dev/null", url])
            let refusals = try runTool("curl", ["-s", "--max-time", "10", "-b", jar, base + "/decisions?device=iphone-alice&status=-34018"]).stdout
            #expect(refusals.contains("com.other.Snooper") && refusals.contains("errSecMissingEntitlement"), "\(refusals.suffix(2000))")
            #expect(!refusals.contains("s3cret-token"), "no value in the console")
            let down = try run(kclab, ["down", "--state", folder.path])
            #expect(down.status == 0 && down.stdout.contains("console"), "\(down.stdout)\(down.stderr)")
            #expect(LabRecord.read(lab) == nil, "every process was stopped")
        }
    }
}

/// `kclab world check` catches what only fails later: a program KeychainLab did not build is an
/// error; an app group its team did not register and a misspelled associated-domains service are
/// warnings (a world may mean them, to show the refusal).
@Suite struct WorldCheckTests {
    @Test func catchesWhatFailsLater() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: "world.yaml")
            let world = """
                name: later
                teams:
                  - {id: ABCDE12345, name: A, appGroups: [group.a]}
                  - {id: OTHER98765, name: B, appGroups: [group.b]}
                apps:
                  - bundleID: com.example.One
                    team: ABCDE12345
                    program: PROGRAM
                    entitlements:
                      com.apple.security.application-groups: [group.a, group.b]
                      com.apple.developer.associated-domains: [webcredentails:example.com, webcredentials:example.com]
                  - bundleID: com.example.Two
                    team: ABCDE12345
                    program: PROGRAM
                    entitlements:
                      keychain-access-groups: [$(AppIdentifierPrefix)shared, 42]
                  - bundleID: com.example.Three
                    team: ABCDE12345
                    program: PROGRAM
                    profile: none
                devices:
                  - {id: phone, osVersion: "17.4", apps: [com.example.Three]}
                """
            try Data(world.replacingOccurrences(of: "PROGRAM", with: "keychainlab-ap").utf8).write(to: file)
            let misspelled = try run(kclab, ["world", "check", file.path])
            #expect(misspelled.status == 1 && misspelled.stderr.contains("no program 'keychainlab-ap'"), "\(misspelled.stderr)")

            try Data(world.replacingOccurrences(of: "PROGRAM", with: "keychainlab-app").utf8).write(to: file)
            let warned = try run(kclab, ["world", "check", file.path])
            #expect(warned.status == 0 && warned.stdout.contains("is valid"), "\(warned.stderr)")
            #expect(warned.stderr.contains("claims app group group.b, but team OTHER98765 registers it"), "\(warned.stderr)")
            #expect(!warned.stderr.contains("group.a"))
            #expect(warned.stderr.contains("'webcredentails' is not a service"))
            #expect(warned.stderr.contains("com.example.Two: keychain-access-groups holds an element that is not text"))
            #expect(warned.stderr.contains("com.example.Three has no profile, so phone will refuse it (profile-required)"))
            #expect(warned.stderr.split(separator: "\n").count == 4)
        }
    }
}
