public import KeychainTypes

extension WebCredentialAPI {
    /// `POST /v1/passkeys/register`: `createCredentialRegistrationRequest(challenge:name:userID:)`
    /// performed by an app's `ASAuthorizationController`. Bytes are base64url.
    public struct PasskeyRegistrationRequest: Codable, Hashable, Sendable {
        public var caller: Caller
        public var relyingParty: String
        public var challenge: String
        public var userName: String
        public var userID: String
        /// A web browser's request: the origin of the page (`ASPublicKeyCredentialClientData`).
        public var origin: String?
        public var consent: Consent?

        public init(
            caller: Caller,
            relyingParty: String,
            challenge: String,
            userName: String,
            userID: String,
            origin: String? = nil,
            consent: Consent? = nil
        ) {
            self.caller = caller
            self.relyingParty = relyingParty
            self.challenge = challenge
            self.userName = userName
            self.userID = userID
            self.origin = origin
            self.consent = consent
        }
    }

    /// `POST /v1/passkeys/assert`: `createCredentialAssertionRequest(challenge:)`, with the
    /// request's `allowedCredentials` (none: any of the relying party's passkeys).
    public struct PasskeyAssertionRequest: Codable, Hashable, Sendable {
        public var caller: Caller
        public var relyingParty: String
        public var challenge: String
        public var allowedCredentials: [String]?
        /// A web browser's request: the origin of the page.
        public var origin: String?
        public var consent: Consent?

        public init(
            caller: Caller,
            relyingParty: String,
            challenge: String,
            allowedCredentials: [String]? = nil,
            origin: String? = nil,
            consent: Consent? = nil
        ) {
            self.caller = caller
            self.relyingParty = relyingParty
            self.challenge = challenge
            self.allowedCredentials = allowedCredentials
            self.origin = origin
            self.consent = consent
        }
    }

    /// `POST /v1/passkeys/list`: the relying party's passkeys on the device, as the app may use them.
    public struct PasskeyListRequest: Codable, Hashable, Sendable {
        public var caller: Caller
        public var relyingParty: String

        public init(caller: Caller, relyingParty: String) {
            self.caller = caller
            self.relyingParty = relyingParty
        }
    }

    /// What the platform authenticator answered (shared with the devices' protocol).
    public typealias PasskeyCredential = KeychainTypes.PasskeyCredential
}
