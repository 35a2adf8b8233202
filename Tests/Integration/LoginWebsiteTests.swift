import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// The login website behind nginx, over TLS, with every process real; then seed 002's story with
/// the browser, the site's apps, webcredentiald and the user's answers.
@Suite(.serialized) struct LoginWebsiteTests {
    static let world = """
        name: login
        teams: [{id: D3KQX62K1A}]
        apps:
          - bundleID: com.example.DemoApp
            name: DemoApp
            team: D3KQX62K1A
            program: demo-app
            profile: distribution
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - bundleID: com.example.DemoAdminApp
            name: DemoAdminApp
            team: D3KQX62K1A
            program: demo-app
            profile: distribution
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.DemoApp]
              com.apple.developer.associated-domains: [webcredentials:example.com]
        devices:
          - {id: phone, osVersion: "17.4", iCloudAccount: alice@example.com, apps: [com.example.DemoApp, com.example.DemoAdminApp]}
          - {id: pad, osVersion: "12.5", iCloudAccount: alice@example.com, apps: [com.example.DemoApp]}
        websites:
          - domain: example.com
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp, D3KQX62K1A.com.example.DemoAdminApp]}}}
            subdomains: [{name: www}]
            accounts: [{username: bob, password: "B0b-builds-things"}]
        """

    /// curl against the lab's nginx, as HOST, trusting the world's web root.
    struct Web {
        let lab: RunningLab
        let site: SiteRecord
        let jar: URL

        init(_ lab: RunningLab) throws {
            self.lab = lab
            site = try #require(lab.summary.websites)
            jar = lab.state.root.appending(path: "cookies.txt")
        }

        func curl(_ arguments: [String], host: String = "example.com") throws -> (status: Int, body: String, headers: String) {
            let headers = lab.state.root.appending(path: "headers.txt")
            let result = try runTool(
                "curl",
                [
                    "-s", "-o", "-", "-D", headers.path, "-w", "\n%{http_code}", "--cacert",
                    lab.state.builtWorld.appending(path: "trust/web-root-ca.pem").path,
                    "--resolve", "\(host):\(site.port):\(site.address)", "-b", jar.path, "-c", jar.path,
                ] + arguments.map { $0.replacingOccurrences(of: "https://HOST/", with: "https://\(host):\(site.port)/") }
            )
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"), (try? String(contentsOf: headers, encoding: .utf8)) ?? "")
        }

        func api(
            _ method: String,
            _ path: String,
            _ body: String?,
            token: String? = nil,
            type: String = "application/json"
        ) throws -> (status: Int, body: String, headers: String) {
            var arguments = ["-X", method, "https://HOST/api/v1/\(path)"]
            if let body { arguments += ["-H", "Content-Type: \(type)", "--data-binary", body] }
            if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
            return try curl(arguments)
        }

        /// `count` sign-ins with `body`, all at once (curl's parallel transfers), still running;
        /// each status on its own line of its standard output.
        func storm(_ body: String, count: Int) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "curl", "-s", "-Z", "--parallel-max", "\(count)", "-o", "/dev/null", "-w", "%{http_code}\n", "--cacert",
                lab.state.builtWorld.appending(path: "trust/web-root-ca.pem").path, "--resolve", "example.com:\(site.port):\(site.address)",
                "-H", "Content-Type: application/json", "--data-binary", body,
                "https://example.com:\(site.port)/api/v1/sessions?attempt=[1-\(count)]",
            ]
            process.standardOutput = Pipe()
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        static func token(_ body: String) -> String? {
            ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["token"] as? String
        }
    }

    @Test func theWebsiteBehindNginx() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let web = try Web(lab)
            // The association file is still nginx's; everything else is the login service.
            #expect(try web.curl(["https://HOST/.well-known/apple-app-site-association"]).body.contains("D3KQX62K1A.com.example.DemoApp"))
            let page = try web.curl(["https://HOST/login"])
            #expect(page.status == 200 && page.body.contains(#"autocomplete="current-password""#))

            // The JSON API: bad input is a 4xx with a reason.
            #expect(try web.api("POST", "accounts", #"{"username":"alice","password":"short"}"#).status == 422)
            #expect(try web.api("POST", "accounts", #"{"username":"bob","password":"Another-good-one"}"#).status == 409, "bob is the world's")
            #expect(try web.api("POST", "accounts", #"{"username": "#).status == 400)
            #expect(try web.api("POST", "accounts", "username=alice", type: "application/x-www-form-urlencoded").status == 415)
            #expect(try web.api("POST", "accounts", "{\"username\":\"" + String(repeating: "a", count: 20_000) + "\"}").status == 413)
            let created = try web.api("POST", "accounts", #"{"username":"alice","password":"Corr3ct-Horse-42"}"#)
            #expect(created.status == 201)
            let token = try #require(Web.token(created.body))
            #expect(try web.api("GET", "me", nil, token: token).body.contains(#""username":"alice""#))
            #expect(try web.api("GET", "me", nil, token: "forged").status == 401)

            // A wrong password and an unknown account read the same; the sixth try pauses the account.
            let wrong = try web.api("POST", "sessions", #"{"username":"alice","password":"nope-nope-nope"}"#)
            let unknown = try web.api("POST", "sessions", #"{"username":"nobody","password":"nope-nope-nope"}"#)
            #expect(wrong.status == 401 && unknown.status == 401 && wrong.body == unknown.body)
            for _ in 0..<4 { _ = try web.api("POST", "sessions", #"{"username":"alice","password":"nope-nope-nope"}"#) }
            let paused = try web.api("POST", "sessions", #"{"username":"alice","password":"Corr3ct-Horse-42"}"#)
            #expect(paused.status == 429 && paused.headers.lowercased().contains("retry-after:"), "\(paused)")
            #expect(try web.api("POST", "sessions", #"{"username":"bob","password":"B0b-builds-things"}"#).status == 200, "only alice is paused")

            // The HTML pages, with a cookie session; www shares example.com's accounts.
            // Login CSRF: a sign-in form posted without the token of a page the site served is refused.
            let crossSite = try web.curl(
                ["--data-urlencode", "username=bob", "--data-urlencode", "password=B0b-builds-things", "https://HOST/login"],
                host: "www.example.com"
            )
            #expect(crossSite.status == 403 && !crossSite.headers.contains("kl_session="), "\(crossSite)")
            let form = try web.curl(["https://HOST/login"], host: "www.example.com")
            let csrf = try #require(form.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)?.output.1)
            let signedIn = try web.curl(
                [
                    "-L", "--data-urlencode", "username=bob", "--data-urlencode", "password=B0b-builds-things", "--data-urlencode", "csrf=\(csrf)",
                    "https://HOST/login",
                ],
                host: "www.example.com"
            )
            #expect(signedIn.status == 200 && signedIn.body.contains("Signed in as <strong>bob</strong>"), "\(signedIn.body)")
            #expect(try web.curl(["https://HOST/"], host: "www.example.com").body.contains("Signed in as"))
            let forged = try web.curl(
                [
                    "--data-urlencode", "current_password=B0b-builds-things", "--data-urlencode", "new_password=Bob-new-pass-7",
                    "https://HOST/password",
                ],
                host: "www.example.com"
            )
            #expect(forged.status == 403, "a form without the session's CSRF token")
            let badForm = try web.curl([
                "--data-binary", "username=%ZZ", "-H", "Content-Type: application/x-www-form-urlencoded", "https://HOST/login",
            ])
            #expect(badForm.status == 400)

            // The database keeps hashes, never a password.
            for name in try FileManager.default.contentsOfDirectory(atPath: lab.state.website.path) {
                // The files, not the operator's socket (admin.sock), which holds nothing.
                let file = lab.state.website.appending(path: name)
                guard try FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType == .typeRegular else { continue }
                let data = try Data(contentsOf: file)
                #expect(data.range(of: Data("Corr3ct-Horse-42".utf8)) == nil && data.range(of: Data("B0b-builds-things".utf8)) == nil, "\(name)")
            }
        }
    }

    /// `kclab reset --all` leaves the lab as `kclab up` did: the same signup works again.
    /// Forty wrong passwords at once for one account, and forty for an account that does not
    /// exist, while another account signs in (issue 24, point 7): the guesses are answered 401 or
    /// 429, never a gateway timeout, and the other account's sign-in is answered.
    @Test func guessesAtOneAccountLeaveTheSiteToOthers() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let web = try Web(lab)
            #expect(try web.api("POST", "accounts", #"{"username":"carol","password":"Carol-has-a-pass-1"}"#).status == 201)
            let storms = try ["carol", "nobody"].map { name in
                try web.storm(#"{"username":"\#(name)","password":"a-wrong-guess"}"#, count: 40)
            }
            try await Task.sleep(for: .milliseconds(300))
            let bob = try web.api("POST", "sessions", #"{"username":"bob","password":"B0b-builds-things"}"#)
            #expect(bob.status == 200, "\(bob)")
            for storm in storms {
                storm.waitUntilExit()
                let output = (storm.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
                let statuses = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
                #expect(statuses.count == 40, "\(statuses)")
                #expect(statuses.allSatisfy { $0 == "401" || $0 == "429" }, "\(statuses)")
                #expect(statuses.filter { $0 == "401" }.count <= 5, "at most five guesses are checked: \(statuses)")
            }
        }
    }

    @Test func resetAllStartsTheWalkthroughOver() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let signup = ["signup", "https://example.com", "--user", "alice", "--password", "Corr3ct-Horse-42"]
            #expect(try lab.runApp("browser", on: "phone", signup).status == 0)
            let saved = try lab.kclab([
                "app", "add-web-credential", "--device", "phone", "--app", "com.example.DemoApp", "example.com", "bob", "--password",
                "B0b-builds-things",
            ])
            #expect(saved.status == 0, "\(saved.stdout)\(saved.stderr)")
            #expect(FileManager.default.fileExists(atPath: lab.state.promptLog("phone").path))
            let reset = try lab.kclab(["reset", "--all"])
            #expect(
                reset.status == 0 && reset.stdout.contains("website accounts") && reset.stdout.contains("prompt logs"),
                "\(reset.stdout)\(reset.stderr)"
            )
            #expect(!FileManager.default.fileExists(atPath: lab.state.promptLog("phone").path))
            let again = try lab.runApp("browser", on: "phone", signup)
            #expect(again.status == 0 && again.stdout.contains("password saved"), "\(again.stdout)\(again.stderr)")
        }
    }

    @Test func seed002FromTheBrowserToTheAppsAndBack() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let safari = "com.apple.mobilesafari"
            // `--app browser` names the world's browser.
            let signup = try lab.runApp(
                "browser",
                on: "phone",
                ["signup", "https://example.com", "--user", "alice", "--password", "Corr3ct-Horse-42"]
            )
            #expect(signup.status == 0 && signup.stdout.contains("password saved"), "\(signup.stdout)")

            let login = try lab.runApp("com.example.DemoApp", on: "phone", ["web-login"])
            #expect(login.stdout.contains("trying alice from shared web credentials") && login.stdout.contains("signed in to example.com as alice"))
            let admin = try lab.runApp("com.example.DemoAdminApp", on: "phone", ["web-login"])
            #expect(admin.stdout.contains("trying alice from the keychain"), "the family's keychain group: \(admin.stdout)")

            // The iOS 12 device of the same account: the user declines the picker; the app asks for
            // what the user types and saves it to both without a prompt.
            _ = try lab.kclab(["device", "answer", "--device", "pad", "decline"])
            let typed = try lab.runApp("com.example.DemoApp", on: "pad", ["web-login", "--user", "alice", "--password", "Corr3ct-Horse-42"])
            #expect(typed.stdout.contains("trying alice from the user"), "\(typed.stdout)")
            #expect((try PromptLog.read(lab.state.promptLog("pad"))).map(\.kind) == ["picker"])

            // The app changes the password; the user declines the shared update: Safari keeps the old one.
            _ = try lab.kclab(["device", "answer", "--device", "phone", "decline"])
            let changed = try lab.runApp("com.example.DemoApp", on: "phone", ["web-change-password", "--new-password", "N3w-Horse-99"])
            #expect(changed.stdout.contains("SecAddSharedWebCredential(example.com, alice, •••) -> no error"), "the decline is silent")
            let stale = try lab.runApp(safari, on: "phone", ["login", "https://example.com", "--user", "alice"])
            #expect(stale.status != 0 && stale.stdout.contains("Incorrect username or password."), "\(stale.stdout)")
            // Signing in again with the new password in the app saves it to both, and the user agrees.
            let again = try lab.runApp("com.example.DemoApp", on: "phone", ["web-login"])
            #expect(again.stdout.contains("trying alice from the keychain") && again.stdout.contains("signed in"))
            let autofill = try lab.runApp(safari, on: "phone", ["login", "https://example.com", "--user", "alice"])
            #expect(autofill.status == 0 && autofill.stdout.contains("AutoFill"), "\(autofill.stdout)")

            // Logging out removes nothing shared; deleting the account removes it everywhere.
            _ = try lab.runApp("com.example.DemoApp", on: "phone", ["web-logout"])
            #expect(try lab.runApp(safari, on: "phone", ["passwords"]).stdout.contains("example.com  alice"))
            _ = try lab.runApp("com.example.DemoApp", on: "phone", ["web-login"])
            let deleted = try lab.runApp("com.example.DemoApp", on: "phone", ["web-delete"])
            #expect(deleted.stdout.contains("the website deleted alice"))
            #expect(try lab.runApp(safari, on: "phone", ["passwords"]).stdout.contains("no saved passwords"))
            try lab.syncWait()
            #expect(try lab.runApp(safari, on: "pad", ["passwords"]).stdout.contains("no saved passwords"), "synchronizable: gone on the iPad too")
            let kinds = (try PromptLog.read(lab.state.promptLog("phone"))).map(\.kind)
            #expect(kinds == ["password-request", "update", "update", "delete"], "\(kinds)")
        }
    }
}
