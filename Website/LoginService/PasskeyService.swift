import Crypto
import Foundation
public import WebAuthn
import WorldFile

/// Passkey sign-up, sign-in and adding a passkey to an account (WebAuthn Level 3 as a relying
/// party): options with a fresh challenge bound to a single-use ceremony token, then the answer
/// checked by ``RelyingParty`` against that challenge, this site's origins and its RP ID (the
/// site's registrable domain). Only public keys are stored. Each refusal is a
/// ``LoginError/passkeyRefused(code:reason:)`` naming the check (docs/passkeys.md).
public final class PasskeyService: Sendable {
    let logins: LoginService
    let sites: SiteDirectory
    /// How long a ceremony's challenge may be answered.
    static let ceremonyLifetime: TimeInterval = 300

    public init(logins: LoginService, sites: SiteDirectory) {
        self.logins = logins
        self.sites = sites
    }

    private var store: AccountStore { logins.store }

    /// The relying party of `site` served on `port`: its domain as RP ID, its hosts on 443 (an
    /// app's origin is `https://RPID`) and on the port the page came from as origins; user
    /// verification preferred, as most relying parties ask (Apple's passkeys always verify the user).
    func relyingParty(_ site: String, port: Int) -> RelyingParty {
        RelyingParty(id: site, hosts: sites.hosts(of: site), ports: [443, port], requiresUserVerification: false)
    }

    // MARK: Registration

    /// Options to create a passkey: for the signed-in account of `token`, else for a new account
    /// named `username` (passkey sign-up).
    public func beginRegistration(
        site: String,
        username: String?,
        token: String?,
        binding: String? = nil
    ) throws(LoginError) -> PasskeyMessages.Begun<PasskeyMessages.CreationOptions> {
        let name: String
        let existing: Bool
        if let token {
            guard let user = logins.user(site: site, token: token) else { throw .notSignedIn }
            (name, existing) = (user, true)
        } else {
            let wanted = (username ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            guard SiteAccount.isValidUsername(wanted) else { throw .invalidUsername }
            guard let hash = LoginService.stored({ try store.passwordHash(site: site, username: wanted) }) else { throw .unavailable }
            guard hash == nil else { throw .usernameTaken }
            (name, existing) = (wanted, false)
        }
        let handle = (LoginService.stored { try store.userHandle(site: site, username: name) } ?? nil) ?? Self.random(16)
        let excluded = existing ? (LoginService.stored { try store.passkeys(site: site, username: name) } ?? []) : []
        let ceremony = try open(
            site: site,
            AccountStore.Ceremony(kind: existing ? "add" : "register", username: name, handle: handle, challenge: Self.random(32), binding: binding)
        )
        return PasskeyMessages.Begun(
            ceremony: ceremony.token,
            publicKey: PasskeyMessages.CreationOptions(
                challenge: Base64URL.encode(ceremony.challenge),
                rp: .init(id: site, name: site),
                user: .init(id: Base64URL.encode(handle), name: name, displayName: name),
                pubKeyCredParams: [.init(alg: COSEKey.es256)],
                timeout: Int(Self.ceremonyLifetime * 1000),
                excludeCredentials: excluded.map { .init(id: Base64URL.encode($0.credentialID)) }
            )
        )
    }

    /// Checks the answer to registration options and stores the passkey; signs the account in.
    public func finishRegistration(
        site: String,
        port: Int = 443,
        _ finish: PasskeyMessages.Finish<RegistrationResponseJSON>,
        kind: LoginService.SessionKind = .bearer,
        binding: String? = nil
    ) throws(LoginError) -> LoginService.Session {
        let tokenHash = LoginService.digest(finish.ceremony)
        let date = logins.now()
        let taken = LoginService.stored { try store.takeCeremony(tokenHash: tokenHash, site: site, kinds: ["register", "add"], at: date) }
        guard let ceremony = taken ?? nil, ceremony.binding == binding, let username = ceremony.username, let handle = ceremony.handle else {
            throw .ceremonyUnknown
        }
        let registered: RelyingParty.Registration
        do throws(WebAuthnError) {
            registered = try relyingParty(site, port: port).verifyRegistration(finish.credential, challenge: Array(ceremony.challenge))
        } catch {
            throw .passkeyRefused(code: error.code, reason: error.description)
        }
        let passkey = AccountStore.StoredPasskey(
            credentialID: Data(registered.credentialID),
            username: username,
            publicKey: Data(registered.publicKey.cbor.encoded()),
            signCount: registered.signCount,
            backupEligible: registered.backupEligible,
            backedUp: registered.backedUp
        )
        let stored = LoginService.stored {
            try store.insertPasskey(
                site: site,
                username: username,
                handle: handle,
                passkey: passkey,
                userVerified: true,
                createAccount: ceremony.kind == "register",
                at: date
            )
        }
        switch stored {
        case nil: throw .unavailable
        case .stored?: break
        case .accountExists?: throw .usernameTaken
        case .credentialTaken?: throw .passkeyTaken
        }
        return try logins.startSession(site: site, username: username, kind: kind)
    }

    // MARK: Authentication

    /// Options to sign in with a passkey: any of the site's (discoverable), or `username`'s.
    public func beginAuthentication(
        site: String,
        username: String?,
        binding: String? = nil
    ) throws(LoginError) -> PasskeyMessages.Begun<PasskeyMessages.RequestOptions> {
        let name = username.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let allowed = name.map { name in LoginService.stored { try store.passkeys(site: site, username: name) } ?? [] } ?? []
        let ceremony = try open(
            site: site,
            AccountStore.Ceremony(kind: "authenticate", username: name, handle: nil, challenge: Self.random(32), binding: binding)
        )
        return PasskeyMessages.Begun(
            ceremony: ceremony.token,
            publicKey: PasskeyMessages.RequestOptions(
                challenge: Base64URL.encode(ceremony.challenge),
                rpId: site,
                timeout: Int(Self.ceremonyLifetime * 1000),
                allowCredentials: allowed.map { .init(id: Base64URL.encode($0.credentialID)) }
            )
        )
    }

    /// Checks a passkey assertion against the ceremony's challenge and the stored public key;
    /// records the counter and signs the account in.
    public func finishAuthentication(
        site: String,
        port: Int = 443,
        _ finish: PasskeyMessages.Finish<AuthenticationResponseJSON>,
        kind: LoginService.SessionKind = .bearer,
        binding: String? = nil
    ) throws(LoginError) -> LoginService.Session {
        let date = logins.now()
        let taken = LoginService.stored {
            try store.takeCeremony(tokenHash: LoginService.digest(finish.ceremony), site: site, kinds: ["authenticate"], at: date)
        }
        guard let ceremony = taken ?? nil, ceremony.binding == binding else { throw .ceremonyUnknown }
        let answer: (credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?)
        do throws(WebAuthnError) {
            answer = try finish.credential.decoded()
        } catch {
            throw .passkeyRefused(code: error.code, reason: error.description)
        }
        let credentialID = Data(answer.credentialID)
        let found = LoginService.stored { try store.passkey(site: site, credentialID: credentialID) } ?? nil
        guard let passkey = found, ceremony.username == nil || ceremony.username == passkey.username else {
            throw .passkeyRefused(code: WebAuthnError.unknownCredential.code, reason: WebAuthnError.unknownCredential.description)
        }
        let accepted: RelyingParty.Assertion
        do throws(WebAuthnError) {
            // A user handle, when the authenticator gives one, is the passkey's account's: another
            // account's is a malformed answer (the credential is known; the answer contradicts it).
            if let handle = answer.userHandle {
                let own = LoginService.stored { try store.userHandle(site: site, username: passkey.username) } ?? nil
                guard let own, Array(own) == handle else { throw .malformed("userHandle is not the passkey's account") }
            }
            let key: COSEKey
            do {
                key = try COSEKey(cbor: try CBORDecoder.decode(Array(passkey.publicKey)))
            } catch {
                throw .unsupportedKey("the stored key cannot be read")
            }
            accepted = try relyingParty(site, port: port).verifyAssertion(
                clientDataJSON: answer.clientDataJSON,
                authenticatorData: answer.authenticatorData,
                signature: answer.signature,
                challenge: Array(ceremony.challenge),
                publicKey: key,
                storedSignCount: passkey.signCount,
                storedBackupEligible: passkey.backupEligible
            )
        } catch {
            throw .passkeyRefused(code: error.code, reason: error.description)
        }
        _ = LoginService.stored {
            try store.recordUse(credentialID: credentialID, signCount: accepted.signCount, backedUp: accepted.backedUp, at: date)
        }
        return try logins.startSession(site: site, username: passkey.username, kind: kind)
    }

    /// The passkeys of the signed-in account.
    func list(site: String, token: String) throws(LoginError) -> [AccountStore.StoredPasskey] {
        guard let user = logins.user(site: site, token: token) else { throw .notSignedIn }
        guard let passkeys = LoginService.stored({ try store.passkeys(site: site, username: user) }) else { throw .unavailable }
        return passkeys
    }

    // MARK: Helpers

    /// Stores a ceremony under a fresh token (only its SHA-256 is kept).
    private func open(site: String, _ ceremony: AccountStore.Ceremony) throws(LoginError) -> (token: String, challenge: Data) {
        let token = Base64URL.encode(Self.random(32))
        let stored: Void? = LoginService.stored {
            try store.insertCeremony(
                tokenHash: LoginService.digest(token),
                site: site,
                ceremony: ceremony,
                expires: logins.now().addingTimeInterval(Self.ceremonyLifetime)
            )
        }
        guard stored != nil else { throw .unavailable }
        return (token, ceremony.challenge)
    }

    static func random(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max) })
    }
}
