import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// Passkeys end to end through real processes: the website behind nginx issues options, an app
/// (kclab acting as it) asks its device, which has webcredentiald check the association, asks its
/// user and lets the platform authenticator answer; the website verifies the answer. A passkey
/// made on the phone signs in on the pad (the iCloud keychain); an app the site does not list, a
/// cancelled sheet and a device before iOS 16 are refused as iOS refuses them.
@Suite(.serialized) struct PasskeyDeviceTests {
    static let world = """
        name: passkeys
        teams: [{id: D3KQX62K1A}, {id: OTHER98765}]
        apps:
          - bundleID: com.example.DemoApp
            name: DemoApp
            team: D3KQX62K1A
            program: demo-app
            profile: distribution
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - bundleID: com.other.Stranger
            name: Stranger
            team: OTHER98765
            program: demo-app
            profile: distribution
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
        devices:
          - {id: phone, osVersion: "17.4", iCloudAccount: alice@example.com, apps: [com.example.DemoApp, com.other.Stranger]}
          - {id: pad, osVersion: "17.0", iCloudAccount: alice@example.com, apps: [com.example.DemoApp]}
          - {id: old-phone, osVersion: "15.5", iCloudAccount: alice@example.com, apps: [com.example.DemoApp]}
        websites:
          - domain: example.com
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}
        """

    typealias Web = LoginWebsiteTests.Web

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func passkey(_ lab: RunningLab, _ device: String, _ app: String, _ arguments: [String]) throws -> [String: Any] {
        let result = try lab.kclab(["app", "passkey"] + arguments.prefix(1) + ["--device", device, "--app", app] + arguments.dropFirst())
        #expect(result.status == 0, "\(result.stderr)")
        return try json(result.stdout)
    }

    static func answer(_ lab: RunningLab, _ device: String, _ answers: [String]) throws {
        #expect(try lab.kclab(["device", "answer", "--device", device] + answers).status == 0)
    }

    @Test func aPasskeyMadeOnThePhoneSignsInOnThePad() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let web = try Web(lab)
            // Registration: the website's options, the device's answer, the website's check.
            let options = try Self.json(try web.api("POST", "passkeys/registration/options", #"{"username":"alice"}"#).body)
            let creation = try #require(options["publicKey"] as? [String: Any])
            let challenge = try #require(creation["challenge"] as? String)
            let userID = try #require((creation["user"] as? [String: Any])?["id"] as? String)
            try Self.answer(lab, "phone", ["approve"])
            let made = try Self.passkey(
                lab,
                "phone",
                "com.example.DemoApp",
                ["register", "example.com", "--user", "alice", "--user-id=\(userID)", "--challenge=\(challenge)"]
            )
            // kclab prints WebAuthn Level 3's RegistrationResponseJSON: posted as it is.
            let credential = try #require(made["passkey"] as? [String: Any], "\(made)")
            let id = try #require(credential["id"] as? String)
            #expect(credential["rawId"] as? String == id && credential["type"] as? String == "public-key")
            let response = try #require(credential["response"] as? [String: Any])
            #expect(
                Set(response.keys) == ["clientDataJSON", "authenticatorData", "transports", "publicKey", "publicKeyAlgorithm", "attestationObject"],
                "\(response.keys)"
            )
            let finish = String(
                decoding: try JSONSerialization.data(withJSONObject: ["ceremony": options["ceremony"] ?? "", "credential": credential]),
                as: UTF8.self
            )
            let registered = try web.api("POST", "passkeys/registration", finish)
            #expect(registered.status == 201, "\(registered.body)")
            let prompts = (try? PromptLog.read(lab.state.promptLog("phone"))) ?? []
            #expect(prompts.last?.title == "Save a passkey for “alice” on “example.com”?")
            let why = try lab.kclab(["explain", "prompt", "--device", "phone"])
            #expect(why.stdout.contains("the system asks before saving it"), "\(why.stdout)")

            // Sign-in on the pad, with the passkey the iCloud keychain brought.
            try lab.syncWait()
            let signIn = try Self.json(try web.api("POST", "passkeys/authentication/options", "{}").body)
            let request = try #require(signIn["publicKey"] as? [String: Any])
            try Self.answer(lab, "pad", ["pick 1"])
            // A base64url challenge may start with '-': given as --challenge=VALUE, never as an option.
            let signInChallenge = try #require(request["challenge"] as? String)
            let asserted = try Self.passkey(lab, "pad", "com.example.DemoApp", ["assert", "example.com", "--challenge=\(signInChallenge)"])
            // And AuthenticationResponseJSON for the assertion, with the user handle the phone registered.
            let answer = try #require(asserted["passkey"] as? [String: Any], "\(asserted)")
            #expect(answer["id"] as? String == id)
            #expect((answer["response"] as? [String: Any])?["userHandle"] as? String == userID, "\(answer)")
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["ceremony": signIn["ceremony"] ?? "", "credential": answer]),
                as: UTF8.self
            )
            let signedIn = try web.api("POST", "passkeys/authentication", body)
            #expect(signedIn.status == 200 && signedIn.body.contains(#""username":"alice""#), "\(signedIn.body)")
            let sheet = ((try? PromptLog.read(lab.state.promptLog("pad"))) ?? []).last
            #expect(sheet?.title == "Sign in with your passkey" && sheet?.choices == ["alice (example.com)"])

            // The pad lists the synced passkey; the key never leaves the system service.
            let listed = try lab.kclab(["app", "passkey", "list", "--device", "pad", "--app", "com.example.DemoApp", "example.com"])
            #expect(listed.stdout.contains(#""credentialID":"\#(id)""#) && listed.stdout.contains(#""userName":"alice""#), "\(listed.stdout)")
            #expect(!listed.stdout.contains("v_Data"))
            // No app may name the passkey group: the keys are the system's.
            let probe: [String: SecValue] = ["class": .string("genp"), "agrp": .string("com.apple.webkit.webauthn"), "r_Data": .bool(true)]
            #expect(try lab.status(.copyMatching, on: "phone", as: "com.example.DemoApp", probe) == -34018)

            // An independent relying party (py_webauthn) verifies what kclab printed, unchanged.
            let ceremonies: [String: Any] = [
                "rpID": "example.com", "origin": "https://example.com",
                "registration": ["challenge": challenge, "credential": credential],
                "assertion": ["challenge": request["challenge"] ?? "", "credential": answer],
            ]
            try await withTemporaryDirectory { folder in
                let file = folder.appending(path: "ceremonies.json")
                try JSONSerialization.data(withJSONObject: ceremonies).write(to: file)
                let verified = try run(try PythonEnvironment.python(), [PythonEnvironment.script("webauthn-verify.py"), file.path])
                #expect(verified.status == 0, "\(verified.stderr)")
                #expect(verified.stdout.contains("registration verified none multi_device True"), "\(verified.stdout)")
                #expect(verified.stdout.contains("registration json hybrid,internal platform platform"), "\(verified.stdout)")
                #expect(verified.stdout.contains("assertion verified 0 True"), "\(verified.stdout)")
            }
        }
    }

    @Test func iOSRefusesWhatItRefuses() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            func error(_ outcome: [String: Any]) -> (Int64?, String) {
                let error = outcome["error"] as? [String: Any]
                return ((error?["code"] as? NSNumber)?.int64Value, error?["message"] as? String ?? "")
            }
            let stranger = error(try Self.passkey(lab, "phone", "com.other.Stranger", ["register", "example.com", "--user", "mallory"]))
            #expect(stranger.0 == 1004)
            #expect(stranger.1 == "Application with identifier OTHER98765.com.other.Stranger is not associated with domain example.com")
            #expect(error(try Self.passkey(lab, "phone", "com.example.DemoApp", ["register", "other.example", "--user", "alice"])).0 == 1004)

            try Self.answer(lab, "phone", ["decline"])
            let cancelled = error(try Self.passkey(lab, "phone", "com.example.DemoApp", ["register", "example.com", "--user", "alice"]))
            #expect(cancelled.0 == 1001, "\(cancelled.1)")
            let none = error(try Self.passkey(lab, "phone", "com.example.DemoApp", ["assert", "example.com"]))
            #expect(none.0 == 1004 && none.1.contains("no passkey"), "nothing was saved: \(none.1)")

            let old = error(try Self.passkey(lab, "old-phone", "com.example.DemoApp", ["register", "example.com", "--user", "alice"]))
            #expect(old.0 == 1003 && old.1.contains("iOS 16"), "\(old.1)")
            let prompts = (try? PromptLog.read(lab.state.promptLog("phone"))) ?? []
            #expect(prompts.count == 1, "only the cancelled sheet was shown: \(prompts.map(\.title))")
            let counted = try lab.metrics(lab.state.webcredentialdEndpoint).lines
            #expect(counted.contains { $0.hasPrefix("webcredential_calls_total{") && $0.contains(#"function="passkey register""#) }, "\(counted)")
        }
    }

    /// The browser offers passkeys on the site's pages, as Safari does: sign up with a passkey on the
    /// phone, sign in with it on the pad; no association is needed for the page's own origin.
    @Test func theBrowserSignsUpAndInWithAPasskey() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            try Self.answer(lab, "phone", ["approve"])
            let signup = try lab.runApp("browser", on: "phone", ["passkey-signup", "https://example.com", "--user", "dora"])
            #expect(
                signup.status == 0 && signup.stdout.contains("signed up on example.com as dora with a passkey: the site signed in dora"),
                "\(signup.stdout)"
            )
            try Self.answer(lab, "pad", ["pick 1"])
            let login = try lab.runApp("browser", on: "pad", ["passkey-login", "https://example.com"])
            #expect(login.status == 0 && login.stdout.contains("signed in with a passkey: the site signed in dora"), "\(login.stdout)")
            let sheet = ((try? PromptLog.read(lab.state.promptLog("phone"))) ?? []).last
            #expect(sheet?.appName == "Safari" && sheet?.title == "Save a passkey for “dora” on “example.com”?")

            // An app that is not a browser may not name a web origin.
            let registration = DeviceRequest.PasskeyRegistration(
                relyingParty: "example.com",
                userName: "eve",
                userID: "AAAA",
                challenge: String(repeating: "A", count: 43),
                origin: "https://example.com"
            )
            let request = DeviceRequest(.passkeyRegister(registration), app: "com.example.DemoApp")
            let refused = try DeviceClient(state: lab.state, device: "phone").send(request)
            #expect(
                refused.callError?.code == 1004 && refused.callError?.message.contains("not entitled") == true,
                "\(String(describing: refused.callError))"
            )
        }
    }

    /// A page's ceremony belongs to the browser that asked for it (its form cookie): answered
    /// through the API, or by another browser, it is unknown.
    @Test func aPagesCeremonyIsBoundToItsBrowser() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let web = try Web(lab)
            let page = try web.curl(["https://HOST/login"]).body
            let csrf = try #require(page.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.components(separatedBy: "\"").first)
            func options() throws -> String {
                let answer = try web.curl(["-X", "POST", "--data-urlencode", "csrf=\(csrf)", "https://HOST/passkeys/authentication/options"])
                return try #require(try Self.json(answer.body)["ceremony"] as? String, "\(answer)")
            }
            let bogus = #"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}"#
            let here = try web.curl([
                "-X", "POST", "--data-urlencode", "csrf=\(csrf)", "--data-urlencode", "ceremony=\(try options())", "--data-urlencode",
                "credential=\(bogus)", "https://HOST/passkeys/authentication",
            ])
            #expect(here.status == 401, "its own browser's answer is checked (and this one refused): \(here.status)")
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["ceremony": try options(), "credential": try Self.json(bogus)]),
                as: UTF8.self
            )
            let elsewhere = try web.api("POST", "passkeys/authentication", body)
            #expect(elsewhere.status == 400 && elsewhere.body.contains("ceremony_unknown"), "\(elsewhere.body)")
        }
    }
}
