import AppIdentity
import KeychainTypes
import Logging
import UserAnswers
import WebCredentialAPI

extension Device {
    /// Asks the user whether `bundleID` may use the login-keychain item `item`, as a Mac asks: the
    /// scripted user's `pick 1` is Always Allow, `pick 2` or `decline` Deny, `pick 3` or `approve`
    /// Allow (the default button). `nil` is Deny. `withPassword`: the app's partition is not on the
    /// item's list, so the prompt asks for the keychain password too; the user types theirs and
    /// keychaind checks it before the answer counts (a wrong one is Deny).
    func askToUse(_ item: String, as bundleID: String, withPassword: Bool = false) async -> UserApproval? {
        let name = app(bundleID)?.installed.bundle.displayName ?? bundleID
        let password = withPassword ? " To allow this, enter the “login” keychain password." : ""
        let prompt = Prompt(
            kind: .keychainAccess,
            app: name,
            domain: "",
            title: "\(name) wants to use your confidential information stored in “\(item)” in your keychain.\(password)",
            messageKey: withPassword ? "KEYCHAIN_ACCESS_PASSWORD" : "KEYCHAIN_ACCESS",
            approveButton: "Allow",
            cancelButton: "Deny",
            choices: ["Always Allow", "Deny", "Allow"]
        )
        let approval: UserApproval
        switch await user.answer(prompt, app: bundleID) {
        case .pick(1): approval = .always
        case .approve, .pick(3): approval = .once
        default: return nil
        }
        guard withPassword else { return approval }
        do {
            _ = try await unlockLoginKeychain(password: userPassword)
            return approval
        } catch {
            logger.warning("the keychain password the user typed was refused", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
