import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// kclab explain answers from the lab's own decisions: keychaind's engine for items, the
/// bundle verifier for installs.
@Suite(.serialized) struct ExplainTests {
    typealias W = IntegrationWorlds

    @Test func explainsAnItemAnotherTeamCannotSee() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let secret = "explain-\(UUID().uuidString.prefix(8))"
            let item: [String: SecValue] = ["class": .string("genp"), "svce": .string("token"), "v_Data": .data(Data(secret.utf8))]
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", item) == 0)
            let query = #"{"class": "genp", "agrp": "ABCDE12345.com.example.SharedItems"}"#
            let foreign: [String: SecValue] = ["class": .string("genp"), "agrp": .string("ABCDE12345.com.example.SharedItems")]
            #expect(try lab.status(.copyMatching, on: W.phone, as: "com.other.Snooper", foreign) == -34018)

            let phone = try lab.kclab(["explain", "item", "--device", W.phone, "--app", "com.other.Snooper", query])
            #expect(phone.status == 0, "\(phone.stderr)")
            #expect(phone.stdout.contains("1. OTHER98765.com.example.SharedItems"), "\(phone.stdout)")
            #expect(phone.stdout.contains("errSecMissingEntitlement (-34018)"))
            #expect(phone.stdout.contains("ABCDE12345.com.example.SharedItems: 1  (NOT one of its groups)"))
            #expect(!phone.stdout.contains(secret), "no data in an explanation")
            #expect(phone.stdout.contains("SecItemCopyMatching → errSecMissingEntitlement (-34018)"), "its latest call, from the audit log")

            // An iOS 12 device ANDs the foreign group with the caller's: nothing matches, -25300.
            let pad = try lab.kclab(["explain", "item", "--device", W.oldPad, "--app", "com.other.Snooper", query, "--json"])
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(pad.stdout.utf8)) as? [String: Any])
            #expect(answer["status"] as? Int == -25300 && answer["refusesForeignGroups"] as? Bool == false, "\(pad.stdout)")

            let owner = try lab.kclab(["explain", "item", "--device", W.phone, "--app", "com.example.AppTwo", query])
            #expect(owner.stdout.contains("errSecSuccess (0)") && owner.stdout.contains("(one of its groups)"), "\(owner.stdout)")

            let thief = try run(kclab, ["explain", "install", lab.state.builtWorld.appending(path: "apps/com.other.Thief.app").path])
            #expect(thief.status == 1 && thief.stdout.contains("entitlement-not-allowed"), "\(thief.stdout)")
            let thiefJSON = try run(kclab, ["explain", "install", lab.state.builtWorld.appending(path: "apps/com.other.Thief.app").path, "--json"])
            #expect(thiefJSON.status == 1 && thiefJSON.stdout.contains(#""valid": false"#), "\(thiefJSON.stdout)")
        }
    }

    /// Why a shared-web-credential prompt was shown, by the device's release.
    @Test func explainsPromptsByRelease() async throws {
        try await withLab(WebCredentialLabTests.world) { (lab: RunningLab) async throws in
            let run = try lab.runApp(WebCredentialLabTests.demo, on: "phone", ["add-web-credential", "example.com", "alice", "Pa55-w0rd"])
            #expect(run.status == 0 && run.stdout.contains(#""error":null"#), "\(run.stdout)\(run.stderr)")
            let phone = try lab.kclab(["explain", "prompt", "--device", "phone"])
            #expect(phone.status == 0, "\(phone.stderr)")
            #expect(phone.stdout.contains("saving a new account asks first (iOS 13 and later)"), "\(phone.stdout)")
            #expect(phone.stdout.contains("example.com: add → the user: approve"), "\(phone.stdout)")
            let report = try lab.kclab(["explain", "prompt", "--device", "phone", "--json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
            #expect((parsed["prompts"] as? [[String: String]])?.first?["kind"] == "add", "\(report.stdout)")
            let old = try lab.kclab(["explain", "prompt", "--device", "old-phone"])
            #expect(old.stdout.contains("a new account is saved without asking (before iOS 13)"), "\(old.stdout)")
            #expect(old.stdout.contains("picker of saved passwords"))
        }
    }
}
