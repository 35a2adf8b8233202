import AppIdentity
import Crypto
import Foundation
import KeychainTypes
import UserAnswers
import WebAuthn
public import WebCredentialAPI

/// Passkeys through the platform authenticator, as AuthenticationServices performs an app's
/// `ASAuthorizationPlatformPublicKeyCredentialProvider` requests: the relying party must be one of
/// the app's `webcredentials:` domains whose file lists the app (the association shared web
/// credentials use), the user confirms on the passkey sheet, and the private key stays in the
/// keychain's passkey group. Failures are `ASAuthorizationError`s.
extension SharedCredentialBroker {
    /// `ASAuthorizationError.Code`.
    enum AuthorizationCode: Int {
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
    }

    static func authorizationFailure(_ code: AuthorizationCode, _ message: String) -> WebCredentialAPI.Outcome {
        WebCredentialAPI.Outcome(
            status: 0,
            error: CallError(domain: CallError.authorizationDomain, code: code.rawValue, message: message),
            reason: message
        )
    }

    /// `createCredentialRegistrationRequest(challenge:name:userID:)`, performed.
    public func registerPasskey(_ request: WebCredentialAPI.PasskeyRegistrationRequest, app: CallingApp) async -> WebCredentialAPI.Outcome {
        guard let userID = Base64URL.decode(request.userID), (1...64).contains(userID.count), !request.userName.isEmpty,
            request.userName.utf8.count <= 256
        else { return Self.authorizationFailure(.failed, "The user ID must be 1 to 64 bytes and the name 1 to 256 bytes.") }
        return await passkeyOutcome(app: app, relyingParty: request.relyingParty, challenge: request.challenge, origin: request.origin) {
            (rp, origin) async throws(Unreachable) -> WebCredentialAPI.Outcome in
            let prompt = Prompt(
                kind: .passkeySave,
                app: app.name,
                domain: rp,
                title: "Save a passkey for “\(request.userName)” on “\(rp)”?",
                messageKey: "PASSKEY_SAVE",
                approveButton: "Continue",
                cancelButton: "Cancel"
            )
            guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
            guard answer != .decline else { return Self.authorizationFailure(.canceled, "The user canceled saving a passkey for \(rp).") }
            let key = P256.Signing.PrivateKey()
            let credentialID = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
            let item = PasskeyItems.newItem(
                relyingParty: rp,
                credentialID: Base64URL.encode(credentialID),
                userName: request.userName,
                userID: userID,
                key: key.rawRepresentation
            )
            let stored = try await keychain(.add, item)
            guard stored.status == 0 else {
                return Self.authorizationFailure(.failed, "The passkey could not be saved in the keychain (OSStatus \(stored.status)).")
            }
            let created = PlatformAuthenticator.register(
                rpID: rp,
                origin: origin,
                challenge: Array(Base64URL.decode(request.challenge) ?? Data()),
                credentialID: Array(credentialID),
                key: key
            )
            return WebCredentialAPI.Outcome(
                status: 0,
                reason: "saved a passkey for \(request.userName) on \(rp)",
                passkey: WebCredentialAPI.PasskeyCredential(
                    credentialID: Base64URL.encode(credentialID),
                    clientDataJSON: Base64URL.encode(created.clientDataJSON),
                    attestationObject: Base64URL.encode(created.attestationObject)
                )
            )
        }
    }

    /// `createCredentialAssertionRequest(challenge:)`, performed: the user picks one of the relying
    /// party's passkeys (of this device or synced from the iCloud account), which signs.
    public func assertPasskey(_ request: WebCredentialAPI.PasskeyAssertionRequest, app: CallingApp) async -> WebCredentialAPI.Outcome {
        await passkeyOutcome(app: app, relyingParty: request.relyingParty, challenge: request.challenge, origin: request.origin) {
            (rp, origin) async throws(Unreachable) -> WebCredentialAPI.Outcome in
            let answer = try await keychain(.copyMatching, PasskeyItems.query(relyingParty: rp))
            var passkeys = answer.status == 0 ? PasskeyItems.list(answer.result) : []
            if let allowed = request.allowedCredentials, !allowed.isEmpty { passkeys = passkeys.filter { allowed.contains($0.credentialID) } }
            guard !passkeys.isEmpty else { return Self.authorizationFailure(.failed, "There is no passkey for \(rp) on this device.") }
            let prompt = Prompt(
                kind: .passkeySignIn,
                app: app.name,
                domain: rp,
                title: "Sign in with your passkey",
                messageKey: "PASSKEY_SIGN_IN",
                approveButton: nil,
                cancelButton: "Cancel",
                choices: passkeys.map { "\($0.userName) (\(rp))" }
            )
            guard let choice = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
            let index: Int
            switch choice {
            case .decline: return Self.authorizationFailure(.canceled, "The user canceled signing in to \(rp).")
            case .approve: index = 0
            case .pick(let row): index = row - 1
            }
            guard passkeys.indices.contains(index) else { return Self.authorizationFailure(.canceled, "The user picked no passkey.") }
            let chosen = passkeys[index]
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: chosen.key),
                let asserted = try? PlatformAuthenticator.assert(
                    rpID: rp,
                    origin: origin,
                    challenge: Array(Base64URL.decode(request.challenge) ?? Data()),
                    key: key
                )
            else { return Self.authorizationFailure(.failed, "The passkey's key cannot be used.") }
            return WebCredentialAPI.Outcome(
                status: 0,
                reason: "signed in as \(chosen.userName) on \(rp) with a passkey",
                passkey: WebCredentialAPI.PasskeyCredential(
                    credentialID: chosen.credentialID,
                    clientDataJSON: Base64URL.encode(asserted.clientDataJSON),
                    authenticatorData: Base64URL.encode(asserted.authenticatorData),
                    signature: Base64URL.encode(asserted.signature),
                    userID: Base64URL.encode(chosen.userID)
                )
            )
        }
    }

    /// The relying party's passkeys on the device (credential ID and user name), for an app the
    /// domain lists; never a key.
    public func listPasskeys(_ request: WebCredentialAPI.PasskeyListRequest, app: CallingApp) async -> WebCredentialAPI.Outcome {
        // A list has no challenge; 16 bytes satisfy the check.
        await passkeyOutcome(app: app, relyingParty: request.relyingParty, challenge: String(repeating: "A", count: 22), origin: nil) {
            (rp, _) async throws(Unreachable) -> WebCredentialAPI.Outcome in
            let answer = try await keychain(.copyMatching, PasskeyItems.listing(relyingParty: rp))
            guard answer.status == 0, case .array(let items)? = answer.result else {
                return WebCredentialAPI.Outcome(status: 0, credentials: [], reason: "no passkey for \(rp)")
            }
            let listed: [[String: SecValue]] = items.compactMap { item in
                guard case .dictionary(let attributes) = item, let id = attributes["acct"] else { return nil }
                return ["credentialID": id, "userName": attributes["labl"] ?? .string(""), "relyingParty": .string(rp)]
            }
            return WebCredentialAPI.Outcome(status: 0, credentials: listed, reason: "\(listed.count) passkey(s) for \(rp)")
        }
    }

    /// What every passkey request checks first (the platform, the parameters, where it may come
    /// from), then `body` with the relying party and the origin to write; a refusal or an
    /// unreachable service is the outcome.
    private func passkeyOutcome(
        app: CallingApp,
        relyingParty: String,
        challenge: String,
        origin requested: String?,
        _ body: (String, String) async throws(Unreachable) -> WebCredentialAPI.Outcome
    ) async -> WebCredentialAPI.Outcome {
        if let refusal = Self.passkeyParameterRefusal(app: app, relyingParty: relyingParty, challenge: challenge) { return refusal }
        let rp = relyingParty.lowercased()
        do throws(Unreachable) {
            switch try await clientOrigin(app: app, relyingParty: rp, requested: requested) {
            case .failure(let refusal): return refusal.outcome
            case .success(let origin): return try await body(rp, origin)
            }
        } catch {
            return error.outcome
        }
    }

    /// Passkeys exist from iOS 16 and macOS 13; the challenge must be 16 to 1024 bytes.
    static func passkeyParameterRefusal(app: CallingApp, relyingParty: String, challenge: String) -> WebCredentialAPI.Outcome? {
        let behaviour = app.behaviour
        let first = behaviour.platform == .macos ? 13 : 16
        guard behaviour.version.major >= first else {
            return authorizationFailure(.notHandled, "Passkeys need \(behaviour.platform == .macos ? "macOS 13" : "iOS 16") or later.")
        }
        guard let bytes = Base64URL.decode(challenge), (16...1024).contains(bytes.count) else {
            return authorizationFailure(.failed, "The challenge must be 16 to 1024 bytes.")
        }
        guard CredentialDomain(relyingParty, behaviour: behaviour) != nil, !relyingParty.contains(":") else {
            return authorizationFailure(.failed, "\(relyingParty) is not a relying party identifier (a domain).")
        }
        return nil
    }

    /// A refusal as a `Result` failure.
    struct Refused: Error {
        let outcome: WebCredentialAPI.Outcome
    }

    /// The origin the authenticator writes into clientDataJSON. An app's own request: the app must
    /// name the relying party in a `webcredentials:` entry and the domain's file must list the app
    /// (iOS fails the request otherwise, with this message); the origin is `https://RPID`. A web
    /// browser's request (`ASPublicKeyCredentialClientData`): the browser must hold the web-browser
    /// public-key-credential entitlement, and the page's origin must be `https` on the relying
    /// party's domain or a subdomain of it (WebAuthn's RP ID rule), with no association needed.
    func clientOrigin(app: CallingApp, relyingParty: String, requested: String?) async throws(Unreachable) -> Result<String, Refused> {
        let appName = app.appID?.rawValue ?? "(none)"
        if let requested {
            guard app.isWebBrowser else {
                return .failure(
                    Refused(outcome: Self.authorizationFailure(.failed, "\(appName) is not entitled to make passkey requests for web origins"))
                )
            }
            guard let url = URLComponents(string: requested), url.scheme == "https", let host = url.host?.lowercased(),
                host == relyingParty || host.hasSuffix("." + relyingParty)
            else {
                return .failure(
                    Refused(outcome: Self.authorizationFailure(.failed, "The origin \(requested) is not of the relying party \(relyingParty)."))
                )
            }
            return .success(requested)
        }
        let refusal = Refused(
            outcome: Self.authorizationFailure(.failed, "Application with identifier \(appName) is not associated with domain \(relyingParty)")
        )
        guard let appID = app.appID, let domain = CredentialDomain(relyingParty, behaviour: app.behaviour),
            domain.isEntitled(by: app.associatedDomains, behaviour: app.behaviour)
        else { return .failure(refusal) }
        return try await isApproved(appID, relyingParty) ? .success("https://\(relyingParty)") : .failure(refusal)
    }
}
