import StableHash
public import UserAnswers

/// A consent prompt webcredentiald asks the device to show its user, as swcagent shows an alert.
public struct Prompt: Codable, Hashable, Sendable {
    /// What the user is asked about.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// Save a new password (SWC_REQUEST_ADD).
        case add
        /// Replace a saved password (SWC_REQUEST_UPDATE).
        case update
        /// Delete a saved password (SWC_REQUEST_DELETE).
        case delete
        /// The G1 request picker (SWC_ALERT_TITLE): one row per saved account.
        case picker
        /// The G2 password request (iOS 15.4+): AuthenticationServices' sheet of saved passwords.
        case passwordRequest = "password-request"
        /// A Mac asking whether an app may use a login-keychain item it is not trusted with:
        /// Always Allow, Deny, Allow.
        case keychainAccess = "keychain-access"
        /// A Mac asking for the keychain password to unlock a locked login keychain: OK, Cancel.
        case keychainUnlock = "keychain-unlock"
        /// The passkey sheet saving a new passkey: Continue, Cancel.
        case passkeySave = "passkey-save"
        /// The passkey sheet signing in: one row per passkey of the relying party, Cancel.
        case passkeySignIn = "passkey-sign-in"
    }

    public var kind: Kind
    /// The app's display name.
    public var app: String
    /// The domain the prompt names.
    public var domain: String
    /// The alert's title, with the app and domain filled in.
    public var title: String
    /// The key of the alert's message body in SharedWebCredentials.strings (its English text is not
    /// in any source we have, so the key is shown).
    public var messageKey: String
    /// The approve button's title (none for a picker, whose rows are the choices).
    public var approveButton: String?
    /// The other button: "Not Now".
    public var cancelButton: String
    /// For a picker or a password request: the accounts offered, as `account (host)`, in order.
    public var choices: [String]?

    public init(
        kind: Kind,
        app: String,
        domain: String,
        title: String,
        messageKey: String = "SWC_INFO_MESSAGE",
        approveButton: String?,
        cancelButton: String = "Not Now",
        choices: [String]? = nil
    ) {
        self.kind = kind
        self.app = app
        self.domain = domain
        self.title = title
        self.messageKey = messageKey
        self.approveButton = approveButton
        self.cancelButton = cancelButton
        self.choices = choices
    }

    private enum CodingKeys: String, CodingKey {
        case kind, app, domain, title, messageKey, approveButton, cancelButton, choices, id
    }

    /// Encodes the prompt with its ``id``, which a reader computes again rather than trusts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(app, forKey: .app)
        try container.encode(domain, forKey: .domain)
        try container.encode(title, forKey: .title)
        try container.encode(messageKey, forKey: .messageKey)
        try container.encodeIfPresent(approveButton, forKey: .approveButton)
        try container.encode(cancelButton, forKey: .cancelButton)
        try container.encodeIfPresent(choices, forKey: .choices)
        try container.encode(id, forKey: .id)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            app: try container.decode(String.self, forKey: .app),
            domain: try container.decode(String.self, forKey: .domain),
            title: try container.decode(String.self, forKey: .title),
            messageKey: try container.decode(String.self, forKey: .messageKey),
            approveButton: try container.decodeIfPresent(String.self, forKey: .approveButton),
            cancelButton: try container.decode(String.self, forKey: .cancelButton),
            choices: try container.decodeIfPresent([String].self, forKey: .choices)
        )
    }

    /// A stable name for this prompt, so an answer is only ever applied to the prompt it answers.
    public var id: String {
        // FNV-1a over each part's UTF-8 and a separator: the same value in every process.
        let parts = [kind.rawValue, app, domain, title] + (choices ?? [])
        return String(FNV1a.hash(parts.flatMap { Array($0.utf8) + [0] }), radix: 16)
    }
}

/// The user's answer to a prompt, sent with the call again.
public struct Consent: Codable, Hashable, Sendable {
    /// The ``Prompt/id`` answered.
    public var prompt: String
    public var answer: PromptAnswer

    public init(prompt: String, answer: PromptAnswer) {
        self.prompt = prompt
        self.answer = answer
    }
}
