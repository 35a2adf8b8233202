import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A Mac's two keychains through real processes: a Mac app's items go to the login keychain unless
/// it asks for data protection; an iOS app on the Mac has the data-protection keychain only; the
/// login keychain's items are for the apps on their access control list.
@Suite(.serialized) struct LoginKeychainTests {
    typealias W = IntegrationWorlds

    static let item: [String: SecValue] = [
        "class": .string("genp"), "svce": .string("mail"), "acct": .string("alice"), "labl": .string("Mail account"),
        "v_Data": .data(Data("pw".utf8)),
    ]

    @Test func aMacAppsItemsGoToTheLoginKeychain() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            var item = Self.item
            item["agrp"] = .string("ABCDE12345.com.example.SharedItems")
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", item) == 0)
            let found = try lab.call(.copyMatching, on: W.mac, as: "com.example.MacApp", ["class": .string("genp"), "r_Attributes": .bool(true)])
            let attributes = try #require(found.result?.dictionaryValue, "\(found.reason ?? "")")
            #expect(attributes["labl"] == .string("Mail account"))
            #expect(attributes["agrp"] == nil, "the login keychain has no access groups")
            let dataProtection: [String: SecValue] = ["class": .string("genp"), "nleg": .bool(true)]
            #expect(try lab.status(.copyMatching, on: W.mac, as: "com.example.MacApp", dataProtection) == -25300)
            let iOSApp = try lab.status(.copyMatching, on: W.mac, as: "com.example.AppOne", ["class": .string("genp")])
            #expect(iOSApp == -25300, "an iOS app on a Mac sees the data-protection keychain only, though it shares the group")
        }
    }

    static func answer(_ lab: RunningLab, _ answers: [String]) throws {
        let result = try lab.kclab(["device", "answer", "--device", W.mac] + answers)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Another app asks the user: Deny (errSecAuthFailed), Allow (this once), Always Allow (then
    /// never again); a call that may show no UI gets errSecInteractionNotAllowed without a prompt.
    @Test func anotherAppNeedsTheUsersSay() async throws {
        try await withLab(W.platformBinaries) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", Self.item) == 0)
            let secret: [String: SecValue] = ["class": .string("genp"), "svce": .string("mail"), "r_Data": .bool(true)]
            let own = try lab.call(.copyMatching, on: W.mac, as: "com.example.MacApp", secret)
            #expect(own.result == .data(Data("pw".utf8)))

            try Self.answer(lab, ["decline", "pick 3", "pick 1"])
            let denied = try lab.call(.copyMatching, on: W.mac, as: "com.example.Greedy", secret)
            #expect(denied.status == -25293, "Deny: \(denied.reason ?? "")")
            let once = try lab.call(.copyMatching, on: W.mac, as: "com.example.Greedy", secret)
            #expect(once.result == .data(Data("pw".utf8)), "Allow: \(once.reason ?? "")")
            let always = try lab.call(.copyMatching, on: W.mac, as: "com.example.Greedy", secret)
            #expect(always.result == .data(Data("pw".utf8)), "Always Allow: \(always.reason ?? "")")
            let trusted = try lab.call(.copyMatching, on: W.mac, as: "com.example.Greedy", secret)
            #expect(trusted.result == .data(Data("pw".utf8)))

            let shown = (try? PromptLog.read(lab.state.promptLog(W.mac))) ?? []
            #expect(shown.count == 3, "no prompt once Always Allow answered: \(shown.map(\.answer))")
            #expect(shown.first?.title == "Greedy wants to use your confidential information stored in “Mail account” in your keychain.")
            #expect(shown.first?.choices == ["Always Allow", "Deny", "Allow"])
            #expect(shown.map(\.answer) == ["decline", "pick 3", "pick 1"])

            // Notes is Apple's (partition apple:), not the item's team: the prompt asks for the
            // keychain password, which the user types (keychaind checks it).
            try Self.answer(lab, ["approve"])
            let notes = try lab.call(.copyMatching, on: W.mac, as: "com.apple.Notes", secret)
            #expect(notes.result == .data(Data("pw".utf8)), "\(notes.reason ?? "")")
            let asked = try #require(((try? PromptLog.read(lab.state.promptLog(W.mac))) ?? []).last)
            #expect(
                asked.title
                    == "Notes wants to use your confidential information stored in “Mail account” in your keychain. To allow this, enter the “login” keychain password."
            )
            #expect(asked.messageKey == "KEYCHAIN_ACCESS_PASSWORD")

            var noUI = secret
            noUI["u_AuthUI"] = .string("u_AuthUIF")
            let silent = try lab.call(.copyMatching, on: W.mac, as: "com.apple.Notes", noUI)
            #expect(silent.status == -25308)
            #expect(silent.reason?.contains("“Mail account”") == true, "\(silent.reason ?? "")")
            #expect(((try? PromptLog.read(lab.state.promptLog(W.mac))) ?? []).count == 4, "no prompt for a call that may show none")
        }
    }

    /// kclab explain item shows, for a Mac app, what each matching login-keychain item's list
    /// decides for it: trusted, a prompt, or a prompt with the keychain password.
    @Test func explainShowsTheLoginKeychainsDecisions() async throws {
        try await withLab(W.platformBinaries) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", Self.item) == 0)
            let query = #"{"class": "genp", "svce": "mail"}"#
            let expected = [
                "com.example.MacApp": "trusted: its secret is used without a prompt",
                "com.example.Greedy": "NOT on the item's list: the Mac asks its user",
                "com.apple.Notes": "NOT on the list, nor its partition: the Mac asks for the keychain password",
            ]
            for (app, access) in expected {
                let explained = try lab.kclab(["explain", "item", "--device", W.mac, "--app", app, query])
                #expect(explained.status == 0, "\(explained.stderr)")
                #expect(explained.stdout.contains("“Mail account”: \(access)"), "\(app): \(explained.stdout)")
                #expect(explained.stdout.contains("The Mac's login keychain is unlocked."))
            }
            let json = try lab.kclab(["explain", "item", "--device", W.mac, "--app", "com.apple.Notes", query, "--json"])
            #expect(json.stdout.contains("\"partition\" : \"apple:\"") || json.stdout.contains("\"partition\":\"apple:\""), "\(json.stdout)")
        }
    }
}
