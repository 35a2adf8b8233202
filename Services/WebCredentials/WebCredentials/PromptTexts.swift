public import WebCredentialAPI

/// The alerts swcagent shows, with Apple's strings (spec associations.md d.3 "Prompts"; src AGT,
/// STR). The placeholders are the app's name, then the domain.
public enum PromptTexts {
    public static func add(app: String, domain: String) -> Prompt {
        Prompt(
            kind: .add,
            app: app,
            domain: domain,
            title: "Would you like to save this password in your iCloud Keychain to use with apps and websites on all your devices?",
            approveButton: "Save Password"
        )
    }

    public static func update(app: String, domain: String) -> Prompt {
        Prompt(
            kind: .update,
            app: app,
            domain: domain,
            title: "“\(app)” Would Like to Update the Saved Password for “\(domain)”",
            approveButton: "Update Password"
        )
    }

    public static func delete(app: String, domain: String) -> Prompt {
        Prompt(
            kind: .delete,
            app: app,
            domain: domain,
            title: "“\(app)” Would Like to Delete the Saved Password for “\(domain)”",
            approveButton: "Delete Password"
        )
    }

    /// G1's picker (`SWC_ALERT_TITLE`): a row per account, and "Not Now" (`SWC_CANCEL`).
    public static func picker(app: String, domain: String, choices: [String]) -> Prompt {
        Prompt(kind: .picker, app: app, domain: domain, title: "Select a Saved Password to Use With “\(app)”", approveButton: nil, choices: choices)
    }

    /// G2's sheet is AuthenticationServices' own view, with no string in Security's table; this
    /// title is KeychainLab's wording for it.
    public static func passwordRequest(app: String, domain: String, choices: [String]) -> Prompt {
        Prompt(
            kind: .passwordRequest,
            app: app,
            domain: domain,
            title: "Sign in to “\(app)” with a saved password?",
            messageKey: "ASAuthorizationPasswordRequest",
            approveButton: nil,
            cancelButton: "Cancel",
            choices: choices
        )
    }
}
