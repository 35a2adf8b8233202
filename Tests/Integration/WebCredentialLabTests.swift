import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// Shared web credentials with every process real: devices, their apps, webcredentiald,
/// associationd (through the CDN for iOS 17, directly for iOS 12), keychaind and nginx.
@Suite(.serialized) struct WebCredentialLabTests {
    static let demo = "com.example.DemoApp"
    static let admin = "com.example.DemoAdminApp"
    static let world = """
        name: webcredentials
        teams: [{id: D3KQX62K1A}]
        apps:
          - bundleID: com.example.DemoApp
            name: DemoApp
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains:
                - webcredentials:example.com
                - webcredentials:www.example.com
                - webcredentials:redirect-301.bad.example.com
                - webcredentials:redirect-http.bad.example.com
                - webcredentials:status-404.bad.example.com
                - webcredentials:status-403.bad.example.com
                - webcredentials:flaky-500.bad.example.com
                - webcredentials:status-503.bad.example.com
                - webcredentials:oversized.bad.example.com
                - webcredentials:exact-limit.bad.example.com
                - webcredentials:invalid-json.bad.example.com
                - webcredentials:bom.bad.example.com
                - webcredentials:app-missing.bad.example.com
                - webcredentials:no-team-prefix.bad.example.com
                - webcredentials:signed-other-domain.bad.example.com
                - webcredentials:expired-certificate.bad.example.com
                - webcredentials:untrusted-ca.bad.example.com
                - webcredentials:wrong-content-type.bad.example.com
          - bundleID: com.example.DemoAdminApp
            name: DemoAdminApp
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.DemoApp]
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - bundleID: com.example.Unlisted
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - {bundleID: com.example.Plain, team: D3KQX62K1A, program: keychainlab-app}
        devices:
          - id: phone
            osVersion: "17.4"
            iCloudAccount: alice@example.com
            apps: [com.example.DemoApp, com.example.DemoAdminApp, com.example.Unlisted, com.example.Plain]
            user: {answers: [approve], default: approve}
          - id: old-phone
            osVersion: "12.5"
            iCloudAccount: alice@example.com
            apps: [com.example.DemoApp]
            user: {answers: ["pick 2", decline], default: approve}
          - {id: off, osVersion: "17.4", passwordAutoFill: false, apps: [com.example.DemoApp]}
        websites:
          - domain: example.com
            brokenSites: true
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp, D3KQX62K1A.com.example.DemoAdminApp]}}}
            subdomains:
              - {name: www, aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}}
        """

    static func add(
        _ lab: RunningLab,
        _ device: String,
        _ app: String,
        _ fqdn: String,
        _ account: String,
        _ password: String?
    ) throws -> DeviceResponse {
        try DeviceClient(state: lab.state, device: device).send(
            DeviceRequest(.addSharedWebCredential(fqdn: fqdn, account: account, password: password), app: app)
        )
    }

    static func request(_ lab: RunningLab, _ device: String, _ app: String, _ fqdn: String?, _ account: String? = nil) throws -> DeviceResponse {
        try DeviceClient(state: lab.state, device: device).send(
            DeviceRequest(.requestSharedWebCredential(fqdn: fqdn, account: account), app: app)
        )
    }

    static func prompts(_ lab: RunningLab, _ device: String) -> [PromptRecord] {
        (try? PromptLog.read(lab.state.promptLog(device))) ?? []
    }

    static func answer(_ lab: RunningLab, _ device: String, _ answers: [String]) throws {
        let result = try lab.kclab(["device", "answer", "--device", device] + answers)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The credential dictionaries of a request, as `[account: password]`.
    static func passwords(_ response: DeviceResponse) -> [String: String] {
        guard case .array(let list)? = response.result else { return [:] }
        var found: [String: String] = [:]
        for case .dictionary(let entry) in list {
            if case .string(let account)? = entry["acct"], case .string(let password)? = entry["spwd"] { found[account] = password }
        }
        return found
    }

    @Test func saveShareUpdateDeclineAndDeleteAcrossAppsAndDevices() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            // iOS 17: a new account is saved after the add prompt, through the Security module.
            let run = try lab.runApp(Self.demo, on: "phone", ["add-web-credential", "example.com", "alice", "Pa55-w0rd"])
            #expect(run.status == 0 && run.stdout.contains(#""error":null"#), "\(run.stdout) \(run.stderr)")
            let shown = Self.prompts(lab, "phone")
            #expect(shown.map(\.kind) == ["add"])
            #expect(
                shown.first?.title
                    == "Would you like to save this password in your iCloud Keychain to use with apps and websites on all your devices?"
            )
            #expect(shown.first?.appName == "DemoApp" && shown.first?.domain == "example.com" && shown.first?.answer == "approve")

            // The second app of the family gets it through the iOS 15.4+ password sheet, reading
            // the dictionary through Apple's constants; the account argument is ignored.
            let shared = try lab.runApp(Self.admin, on: "phone", ["request-web-credential", "example.com", "nobody"])
            #expect(shared.stdout.contains(#""acct":"alice""#) && shared.stdout.contains(#""spwd":"Pa55-w0rd""#), "\(shared.stdout)")
            #expect(shared.stdout.contains(#""srvr":"example.com""#) && shared.stdout.contains(#""error":null"#))

            // The iPad-era phone of the same iCloud account sees the synchronizable item in G1's
            // picker, once iCloud Keychain carried it; its user picks the 2nd row, which does not
            // exist: a cancel (empty, no error).
            try lab.syncWait()
            #expect(Self.passwords(try Self.request(lab, "old-phone", Self.demo, nil)).isEmpty)
            #expect(Self.prompts(lab, "old-phone").last?.title == "Select a Saved Password to Use With “DemoApp”")
            #expect(Self.prompts(lab, "old-phone").last?.choices == ["alice (example.com)"])
            // iOS 12 saves a new account without asking (seed 002) ...
            let before = Self.prompts(lab, "old-phone").count
            #expect(try Self.add(lab, "old-phone", Self.demo, "example.com", "bob", "b0b-pass").status == 0)
            #expect(Self.prompts(lab, "old-phone").count == before)
            // ... and the next answer (decline) cancels the picker.
            let declined = try Self.request(lab, "old-phone", Self.demo, "example.com")
            #expect(declined.status == 0 && declined.callError == nil && Self.passwords(declined).isEmpty)
            let picked = try Self.request(lab, "old-phone", Self.demo, "example.com", "bob")
            #expect(Self.passwords(picked) == ["bob": "b0b-pass"])

            // Declining a new save reports success, and nothing is saved. The user thinks first.
            try Self.answer(lab, "phone", ["wait 300ms then decline"])
            let quiet = try Self.add(lab, "phone", Self.demo, "www.example.com", "carol", "c4rol")
            #expect(quiet.status == 0 && quiet.callError == nil)
            #expect(Self.prompts(lab, "phone").last?.waitedMilliseconds == 300 && Self.prompts(lab, "phone").last?.answer == "decline")
            try Self.answer(lab, "phone", ["pick 1"])
            let sheet = try Self.request(lab, "phone", Self.demo, "www.example.com")
            #expect(Self.prompts(lab, "phone").last?.choices == ["alice (example.com)", "bob (example.com)"], "carol was not saved")
            #expect(Self.passwords(sheet) == ["alice": "Pa55-w0rd"], "the sheet's first row")

            // An unchanged password is written again without a prompt; a changed one asks.
            var count = Self.prompts(lab, "phone").count
            #expect(try Self.add(lab, "phone", Self.demo, "example.com", "alice", "Pa55-w0rd").status == 0)
            #expect(Self.prompts(lab, "phone").count == count)
            #expect(try Self.add(lab, "phone", Self.demo, "example.com", "alice", "N3w-pass").status == 0)
            #expect(Self.prompts(lab, "phone").last?.title == "“DemoApp” Would Like to Update the Saved Password for “example.com”")
            try Self.answer(lab, "phone", ["pick 1"])
            #expect(Self.passwords(try Self.request(lab, "phone", Self.admin, nil))["alice"] == "N3w-pass")

            // Deleting always asks; after it, the sheet has nothing: -25300 with ASAuthorizationError 1001.
            count = Self.prompts(lab, "phone").count
            for account in ["alice", "bob"] {
                #expect(try Self.add(lab, "phone", Self.demo, "example.com", account, nil).status == 0)
            }
            #expect(Self.prompts(lab, "phone").suffix(from: count).map(\.kind) == ["delete", "delete"])
            let empty = try Self.request(lab, "phone", Self.demo, "example.com")
            #expect(empty.status == -25300 && empty.callError?.code == 1001)
            #expect(empty.callError?.domain == "com.apple.AuthenticationServices.AuthorizationError")

            // Deleting the app forgets its associations but not its keychain items, as on iOS;
            // installing it again brings the associations back and it finds its items.
            let kept: [String: SecValue] = ["class": .string("genp"), "svce": .string("kept"), "acct": .string("a")]
            #expect(try lab.call(.add, on: "phone", as: Self.demo, kept.merging(["v_Data": .data(Data("x".utf8))]) { $1 }).status == 0)
            func phoneAssociations() throws -> [[String: Any]] {
                let listed = try lab.kclab(["associations", "--json", "--app", Self.demo])
                let records = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
                return records.filter { $0["device"] as? String == lab.device("phone")?.udid }
            }
            #expect(try !phoneAssociations().isEmpty)
            #expect(try lab.kclab(["app", "delete", "--device", "phone", "--app", Self.demo]).status == 0)
            #expect(try phoneAssociations().isEmpty, "kept until the app is deleted")
            #expect(try Self.add(lab, "phone", Self.demo, "example.com", "x", "y").error?.contains("not installed") == true)
            #expect(try lab.kclab(["app", "install", "--device", "phone", "--app", Self.demo]).status == 0)
            #expect(
                try phoneAssociations().contains { $0["entry"] as? String == "webcredentials:example.com" && $0["state"] as? String == "approved" }
            )
            #expect(try lab.call(.copyMatching, on: "phone", as: Self.demo, kept).status == 0, "the keychain outlives the app")

            // kclab device prompts shows the log.
            let listed = try lab.kclab(["device", "prompts", "--device", "phone"])
            #expect(listed.status == 0 && listed.stdout.contains("Would Like to Delete the Saved Password for “example.com”"))

            // webcredentiald serves exactly its OpenAPI document.
            let operations = try OpenAPIRoutes.operations(in: "Services/WebCredentials/WebCredentialAPI/openapi.yaml")
            #expect(operations.count == 7, "\(operations)")
            try OpenAPIRoutes.check(
                operations,
                undocumented: [
                    ("GET", "/v1/credentials/add"), ("POST", "/v1/credentials"), ("PUT", "/v1/approvals"), ("GET", "/v1/passkeys/register"),
                    ("POST", "/v1/passkeys"),
                ],
                endpoint: try Endpoint(lab.state.webcredentialdEndpoint).url,
                lab: lab,
                device: "phone"
            )

            // Never a password in webcredentiald's files or any log.
            for folder in [lab.state.webcredentiald, lab.state.logs] {
                for name in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
                    let data = (try? Data(contentsOf: folder.appending(path: name))) ?? Data()
                    #expect(data.range(of: Data("Pa55-w0rd".utf8)) == nil && data.range(of: Data("b0b-pass".utf8)) == nil, "\(name)")
                }
            }
        }
    }

    /// associationd counts its verdicts and webcredentiald its calls, prompts and answers.
    @Test func daemonsCountTheirDecisions() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let run = try lab.runApp(Self.demo, on: "phone", ["add-web-credential", "example.com", "alice", "Pa55-w0rd"])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let credentials = try lab.metrics(lab.state.webcredentialdEndpoint).lines
            #expect(credentials.contains(#"webcredential_prompts_total{kind="add"} 1"#), "\(credentials)")
            #expect(credentials.contains(#"webcredential_prompt_answers_total{answer="approve"} 1"#))
            #expect(credentials.contains { $0.hasPrefix(#"webcredential_calls_total{function="SecAddSharedWebCredential",status="0"}"#) })
            let associations = try lab.metrics(lab.state.associationdEndpoint).lines
            #expect(
                associations.contains { $0.hasPrefix(#"association_fetches_total{service="webcredentials",verdict="approved"}"#) },
                "\(associations)"
            )
            #expect(associations.contains { $0.hasPrefix("association_fetch_duration_seconds_count") })
        }
    }

    @Test func refusalsCarryApplesStatusAndMessage() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let plain = try Self.add(lab, "phone", "com.example.Plain", "example.com", "alice", "pw")
            #expect(
                plain.status == -34018 && plain.callError?.message == "example.com not found in com.apple.developer.associated-domains entitlement"
            )
            let unlisted = try Self.add(lab, "phone", "com.example.Unlisted", "example.com", "alice", "pw")
            #expect(unlisted.status == -25293)
            #expect(unlisted.callError?.message == #""example.com" failed to approve "D3KQX62K1A.com.example.Unlisted""#)
            // Every broken site the associations issue lists but the slow one (which takes its timeout):
            // refused with Apple's status, except the three a device accepts (with warnings).
            let accepted: Set<String> = ["exact-limit", "bom", "wrong-content-type"]
            let refusedKinds = [
                "redirect-301", "redirect-http", "status-404", "status-403", "flaky-500", "status-503", "oversized", "invalid-json",
                "app-missing", "no-team-prefix", "signed-other-domain", "expired-certificate", "untrusted-ca",
            ]
            for broken in refusedKinds + accepted.sorted() {
                let host = "\(broken).bad.example.com"
                let answer = try Self.add(lab, "phone", Self.demo, host, "alice", "pw")
                if accepted.contains(broken) {
                    #expect(answer.status == 0 && answer.callError == nil, "\(host): \(answer)")
                } else {
                    #expect(answer.status == -25293, "\(host): \(answer)")
                    #expect(answer.callError?.message == #""\#(host)" failed to approve "D3KQX62K1A.com.example.DemoApp""#)
                }
            }
            let off = try Self.add(lab, "off", Self.demo, "example.com", "alice", "pw")
            #expect(off.status == -909)
            #expect(off.callError?.message == "Password AutoFill for iCloud Keychain must be enabled in Settings > Passwords to save passwords")

            // The client-side checks run in the app, before any call.
            let empty = try lab.runApp(Self.demo, on: "phone", ["request-web-credential", ""])
            #expect(empty.stdout.contains("fqdn was empty or not a CFString") && empty.stdout.contains(#""credentials":null"#), "\(empty.stdout)")

            // A site answering 500 stays pending for an iOS 12 device; the call fetches it again,
            // so once the site recovers the same call succeeds.
            let flaky = "flaky-500.bad.example.com"
            #expect(try Self.add(lab, "old-phone", Self.demo, flaky, "alice", "pw").status == -25293)
            let recovered = lab.state.websites.appending(path: "recovered/\(flaky)")
            try FileManager.default.createDirectory(at: recovered.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: recovered)
            let retried = try Self.add(lab, "old-phone", Self.demo, flaky, "alice", "pw")
            #expect(retried.status == 0, "\(retried)")

            // associationd goes down: a clear error, and webcredentiald keeps answering.
            let associationd = try #require(LabRecord.read(lab.state)?.processes.first { $0.name == "associationd" })
            await LabProcesses.stop(associationd.pid)
            for _ in 0..<2 {
                let down = try Self.add(lab, "phone", Self.demo, "example.com", "dave", "pw")
                #expect(down.status == -25291 && down.callError?.message == "associationd cannot be reached to approve example.com; try again")
            }
        }
    }
}
