public import AppIdentity
public import Foundation
public import KeychainTypes

/// The JSON bodies of webcredentiald's API, shared by webcredentiald and the devices (openapi.yaml
/// beside this file is the contract).
public enum WebCredentialAPI {
    /// The calling app, as its device vouches for it: its signed files (webcredentiald verifies
    /// them and reads the entitlements itself) and the device's settings.
    public struct Caller: Codable, Hashable, Sendable {
        /// `embedded.mobileprovision`, DER (base64 in JSON).
        public var profile: Data
        /// `_CodeSignature/CodeSignature`, DER (base64 in JSON).
        public var codeSignature: Data
        /// The app's display name, for prompts.
        public var appName: String
        public var platform: Platform
        public var osVersion: OSVersion
        /// Settings › Passwords › AutoFill Passwords.
        public var passwordAutoFill: Bool

        public init(profile: Data, codeSignature: Data, appName: String, platform: Platform, osVersion: OSVersion, passwordAutoFill: Bool) {
            self.profile = profile
            self.codeSignature = codeSignature
            self.appName = appName
            self.platform = platform
            self.osVersion = osVersion
            self.passwordAutoFill = passwordAutoFill
        }
    }

    /// `POST /v1/credentials/add`: `SecAddSharedWebCredential(fqdn, account, password)`.
    public struct AddRequest: Codable, Hashable, Sendable {
        public var caller: Caller
        public var fqdn: String?
        public var account: String?
        /// `nil` removes the saved password.
        public var password: String?
        /// The user's answer to the prompt the previous attempt returned.
        public var consent: Consent?

        public init(caller: Caller, fqdn: String?, account: String?, password: String?, consent: Consent? = nil) {
            self.caller = caller
            self.fqdn = fqdn
            self.account = account
            self.password = password
            self.consent = consent
        }
    }

    /// `POST /v1/credentials/request`: `SecRequestSharedWebCredential(fqdn, account)`.
    public struct CopyRequest: Codable, Hashable, Sendable {
        public var caller: Caller
        /// `nil`: the domains of the app's entitlement.
        public var fqdn: String?
        /// `nil`: every account.
        public var account: String?
        public var consent: Consent?

        public init(caller: Caller, fqdn: String?, account: String?, consent: Consent? = nil) {
            self.caller = caller
            self.fqdn = fqdn
            self.account = account
            self.consent = consent
        }
    }

    /// The error an app's completion handler receives (a CFError).
    public typealias CallError = KeychainTypes.CallError

    /// What a call came to, or the prompt the user must answer first.
    public struct Outcome: Codable, Hashable, Sendable {
        /// The OSStatus the call decided on (0 also when a quirk hides a refusal, see `reason`).
        public var status: Int32
        /// The error the completion handler receives; `nil` is Apple's `error == NULL`.
        public var error: CallError?
        /// For a request: the credential dictionaries (`srvr`, `acct`, `spwd`, `port`); an empty
        /// array when none.
        public var credentials: [[String: SecValue]]?
        /// Set instead of a result when the user must be asked first: show it, then send the call
        /// again with the answer as `consent`.
        public var prompt: Prompt?
        /// The rule that decided, in words (for logs and `explain`; never holds a password).
        public var reason: String?
        /// For a passkey request: what the authenticator answered.
        public var passkey: PasskeyCredential?

        public init(
            status: Int32,
            error: CallError? = nil,
            credentials: [[String: SecValue]]? = nil,
            prompt: Prompt? = nil,
            reason: String? = nil,
            passkey: PasskeyCredential? = nil
        ) {
            self.status = status
            self.error = error
            self.credentials = credentials
            self.prompt = prompt
            self.reason = reason
            self.passkey = passkey
        }

        /// A failure reported as Apple reports it: the status, and a CFError with the message.
        public static func failure(_ status: Int32, _ message: String, reason: String? = nil) -> Outcome {
            Outcome(status: status, error: .osStatus(status, message), reason: reason ?? message)
        }

        /// The user must answer `prompt` first.
        public static func ask(_ prompt: Prompt) -> Outcome {
            Outcome(status: 0, prompt: prompt, reason: "waiting for the user")
        }
    }

    /// `GET /v1/approvals`: what the device's user last decided for an app and a site.
    public struct UserApproval: Codable, Hashable, Sendable {
        public var appID: AppID
        public var host: String
        public var approved: Bool
        public var updated: Date

        public init(appID: AppID, host: String, approved: Bool, updated: Date) {
            self.appID = appID
            self.host = host
            self.approved = approved
            self.updated = updated
        }
    }

    /// The coders of this API.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
