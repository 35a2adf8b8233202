import AppIdentity
import KeychainTypes
import WebCredentialAPI

extension Device {
    /// Asks the user whether `bundleID` may use the login-keychain item `item`, as a Mac asks: the
    /// scripted user's `pick 1` is Always Allow, `pick 2` or `decline` Deny, `pick 3` or `approve`
    /// Allow (the default button). `nil` is Deny.
    func askToUse(_ item: String, as bundleID: String) async -> UserApproval? {
        let name = app(bundleID)?.installed.bundle.displayName ?? bundleID
        let prompt = Prompt(
            kind: .keychainAccess,
            app: name,
            domain: "",
            title: "\(name) wants to use your confidential information stored in “\(item)” in your keychain.",
            messageKey: "KEYCHAIN_ACCESS",
            approveButton: "Allow",
            cancelButton: "Deny",
            choices: ["Always Allow", "Deny", "Allow"]
        )
        switch await user.answer(prompt, app: bundleID) {
        case .pick(1): return .always
        case .approve, .pick(3): return .once
        default: return nil
        }
    }
}
