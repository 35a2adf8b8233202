import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A Mac's login keychain locks apart from the screen and opens only with the user's password,
/// which keychaind checks against its verifier (real processes: keychaind, the Mac, kclab).
@Suite(.serialized) struct LoginKeychainLockTests {
    typealias W = IntegrationWorlds

    static let app = "com.example.MacApp"
    static let secret: [String: SecValue] = ["class": .string("genp"), "svce": .string("mail"), "r_Data": .bool(true)]

    static func kclab(_ lab: RunningLab, _ arguments: [String]) throws -> ProgramResult {
        try lab.kclab(["device"] + arguments + ["--device", W.mac])
    }

    /// Locked: attributes are still found, a secret is not without the password; the user types
    /// it (approve) or cancels (-128); a call that may show no UI is -25308; kclab unlocks with
    /// the user's password and refuses a wrong one (-25293).
    @Test func theLockedLoginKeychainOpensWithTheUsersPassword() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let item: [String: SecValue] = [
                "class": .string("genp"), "svce": .string("mail"), "acct": .string("alice"), "v_Data": .data(Data("pw".utf8)),
            ]
            #expect(try lab.status(.add, on: W.mac, as: Self.app, item) == 0, "the login keychain is open after login")
            let locked = try Self.kclab(lab, ["lock-keychain"])
            #expect(locked.status == 0, "\(locked.stderr)")
            #expect(locked.stdout.contains("mac: login keychain locked"), "\(locked.stdout)")

            let attributes = try lab.call(.copyMatching, on: W.mac, as: Self.app, ["class": .string("genp"), "r_Attributes": .bool(true)])
            #expect(attributes.status == 0, "finding items by their attributes needs no unlock: \(attributes.reason ?? "")")
            var noUI = Self.secret
            noUI["u_AuthUI"] = .string("u_AuthUIF")
            let silent = try lab.call(.copyMatching, on: W.mac, as: Self.app, noUI)
            #expect(silent.status == -25308)
            #expect(silent.reason?.contains("locked") == true, "\(silent.reason ?? "")")
            var second = item
            second["acct"] = .string("bob")
            second["u_AuthUI"] = .string("u_AuthUIF")
            #expect(try lab.status(.add, on: W.mac, as: Self.app, second) == -25308, "an add must open the keychain too")

            try LoginKeychainTests.answer(lab, ["decline", "approve"])
            let cancelled = try lab.call(.copyMatching, on: W.mac, as: Self.app, Self.secret)
            #expect(cancelled.status == -128, "Cancel: \(cancelled.reason ?? "")")
            let typed = try lab.call(.copyMatching, on: W.mac, as: Self.app, Self.secret)
            #expect(typed.result == .data(Data("pw".utf8)), "the user typed the password: \(typed.reason ?? "")")
            let shown = (try? PromptLog.read(lab.state.promptLog(W.mac))) ?? []
            #expect(shown.map(\.kind) == ["keychain-unlock", "keychain-unlock"])
            #expect(shown.first?.title == "MacApp wants to use the “login” keychain. Please enter the keychain password.")
            #expect(try lab.call(.copyMatching, on: W.mac, as: Self.app, noUI).status == 0, "open now, for every call")

            #expect(try Self.kclab(lab, ["lock-keychain"]).status == 0)
            let wrong = try Self.kclab(lab, ["unlock-keychain", "--password", "wrong horse"])
            #expect(wrong.status != 0)
            #expect(wrong.stderr.contains("errSecAuthFailed (-25293)"), "\(wrong.stderr)")
            #expect(try lab.call(.copyMatching, on: W.mac, as: Self.app, noUI).status == -25308, "a wrong password leaves it locked")
            let right = try Self.kclab(lab, ["unlock-keychain"])
            #expect(right.status == 0, "\(right.stderr)")
            #expect(right.stdout.contains("mac: login keychain unlocked"), "\(right.stdout)")
            #expect(try lab.call(.copyMatching, on: W.mac, as: Self.app, noUI).status == 0)
        }
    }

    /// keychaind keeps a verifier, never the password; only a Mac has a login keychain.
    @Test func keychaindKeepsNoPasswordAndOnlyAMacHasALoginKeychain() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            #expect(try Self.kclab(lab, ["unlock-keychain", "--password", "correct horse"]).status == 0)
            let file = try String(contentsOf: lab.state.keychaind.appending(path: "login-keychains.json"), encoding: .utf8)
            #expect(file.contains("verifier"))
            #expect(!file.contains("correct horse") && !file.contains(Data("correct horse".utf8).base64EncodedString()))
            let phone = try lab.kclab(["device", "lock-keychain", "--device", W.phone])
            #expect(phone.status != 0)
            #expect(phone.stderr.contains("only a Mac has a login keychain"), "\(phone.stderr)")
        }
    }

    /// An app locks and unlocks it too: security-tool lock-keychain, unlock-keychain -p (a wrong
    /// password exits 51, errSecAuthFailed's low byte, as the real tool does).
    @Test func securityToolLocksAndUnlocks() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            #expect(try SecurityToolTests.security(lab, ["add-generic-password", "-a", "alice", "-s", "mail", "-w", "pw"]).0 == 0)
            #expect(try SecurityToolTests.security(lab, ["lock-keychain", "login.keychain"]).0 == 0)
            let status = try lab.kclab(["status"])
            #expect(status.stdout.contains("device mac: running") && status.stdout.contains("login keychain: locked"), "\(status.stdout)")
            let wrong = try SecurityToolTests.security(lab, ["unlock-keychain", "-p", "wrong horse"])
            #expect(wrong.0 == 51)
            #expect(wrong.1.contains("security: SecKeychainUnlock <NULL>: The user name or passphrase you entered is not correct."), "\(wrong.1)")
            #expect(try SecurityToolTests.security(lab, ["unlock-keychain", "/Users/alice/Library/Keychains/other.keychain"]).0 == 50)
            #expect(try SecurityToolTests.security(lab, ["unlock-keychain", "-p", "correct horse"]).0 == 0)
            let found = try SecurityToolTests.security(lab, ["find-generic-password", "-a", "alice", "-s", "mail", "-w"])
            #expect(found.0 == 0 && found.1 == "pw\n", "\(found.1)")
        }
    }
}
