public import AppIdentity
public import KeychainTypes

/// The SecItem calls the broker makes in one device's keychain, in `com.apple.cfnetwork` (keychaind).
public protocol SavedPasswordKeychain: Sendable {
    /// Makes a call; throws when keychaind cannot be reached.
    func call(_ call: SecItemCall, query: [String: SecValue], attributesToUpdate: [String: SecValue]?) async throws -> KeychainAnswer
}

/// A SecItem call's outcome.
public struct KeychainAnswer: Sendable {
    public let status: Int32
    public let result: SecValue?

    public init(status: Int32, result: SecValue?) {
        self.status = status
        self.result = result
    }
}

/// Site approval, from associationd: does the site's file list the app for `webcredentials`?
/// A pending site is fetched again first (SWCREF: "whenever the app calls").
public protocol SiteApprovals: Sendable {
    /// Throws when associationd cannot be reached.
    func isApproved(appID: AppID, host: String) async throws -> Bool
}

/// User approval per (app, host), which swcagent records: denied after "Not Now", approved after
/// picking a password. It never gates a call (d.3 step 4), but it is kept and shown.
public protocol UserApprovals: Sendable {
    func record(appID: AppID, host: String, approved: Bool) async
}

/// The app making the call, as its verified signature and its device describe it.
public struct CallingApp: Sendable {
    /// The application identifier; `nil` when the signature carries none.
    public let appID: AppID?
    /// The display name prompts show.
    public let name: String
    /// `com.apple.developer.associated-domains`, verbatim.
    public let associatedDomains: [String]
    /// The device's behaviour.
    public let behaviour: BrokerBehaviour
    /// Settings › Passwords › AutoFill Passwords.
    public let passwordAutoFill: Bool
    /// Whether the app is a web browser entitled to passkey requests for the origins it shows.
    public let isWebBrowser: Bool

    public init(
        appID: AppID?,
        name: String,
        associatedDomains: [String],
        behaviour: BrokerBehaviour,
        passwordAutoFill: Bool,
        isWebBrowser: Bool = false
    ) {
        self.appID = appID
        self.name = name
        self.associatedDomains = associatedDomains
        self.behaviour = behaviour
        self.passwordAutoFill = passwordAutoFill
        self.isWebBrowser = isWebBrowser
    }
}
