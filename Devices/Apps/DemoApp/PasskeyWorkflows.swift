import AuthenticationServices
import DeviceNetwork
import Foundation
import WebAuthn

/// Passkey sign-up and sign-in with the website, as an app does them: the site's options, an
/// `ASAuthorizationController` request (the device checks the association and asks the user), and
/// the answer posted back for the site to verify.
enum PasskeyWorkflows {
    /// `web-passkey-signup --user U`: a new account whose only credential is a passkey.
    static func signUp(_ account: SiteAccount, user: String) async throws -> Int32 {
        let options = try await account.post("passkeys/registration/options", ["username": user])
        guard options.status == 200, let ceremony = options.object["ceremony"] as? String,
            let creation = options.object["publicKey"] as? [String: Any],
            let challenge = (creation["challenge"] as? String).flatMap(Base64URL.decode),
            let userID = ((creation["user"] as? [String: Any])?["id"] as? String).flatMap(Base64URL.decode)
        else {
            print("\(account.app): the website gave no passkey options: \(options.object["message"] ?? "HTTP \(options.status)")")
            return 1
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: account.site)
        let request = provider.createCredentialRegistrationRequest(challenge: challenge, name: user, userID: userID)
        let registration: ASAuthorizationPlatformPublicKeyCredentialRegistration
        do {
            guard let made = try await Authorization.perform(request).credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration else {
                return 1
            }
            registration = made
        } catch {
            print("\(account.app): no passkey: \(describe(error))")
            return 1
        }
        let credential = try PasskeyJSON.registration(registration)
        let answer = try await account.post("passkeys/registration", ["ceremony": ceremony, "credential": credential])
        guard answer.status == 201, let token = answer.object["token"] as? String else {
            print("\(account.app): the website refused the passkey: \(answer.object["message"] ?? "HTTP \(answer.status)")")
            return 1
        }
        account.saveToken(token, user: user)
        print("\(account.app): created \(user) on \(account.site) with a passkey (its private key stays in the iCloud keychain)")
        return 0
    }

    /// `web-passkey-login`: sign in with any passkey of the site the user picks.
    static func logIn(_ account: SiteAccount) async throws -> Int32 {
        let options = try await account.post("passkeys/authentication/options", [:])
        guard options.status == 200, let ceremony = options.object["ceremony"] as? String,
            let challenge = ((options.object["publicKey"] as? [String: Any])?["challenge"] as? String).flatMap(Base64URL.decode)
        else {
            print("\(account.app): the website gave no passkey options: HTTP \(options.status)")
            return 1
        }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: account.site)
        let assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion
        do {
            let request = provider.createCredentialAssertionRequest(challenge: challenge)
            guard let signed = try await Authorization.perform(request).credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
                return 1
            }
            assertion = signed
        } catch {
            print("\(account.app): no passkey sign-in: \(describe(error))")
            return 1
        }
        let credential = try PasskeyJSON.assertion(assertion)
        let answer = try await account.post("passkeys/authentication", ["ceremony": ceremony, "credential": credential])
        guard answer.status == 200, let token = answer.object["token"] as? String, let user = answer.object["username"] as? String else {
            print("\(account.app): the website refused the passkey: \(answer.object["message"] ?? "HTTP \(answer.status)")")
            return 1
        }
        account.saveToken(token, user: user)
        print("\(account.app): signed in to \(account.site) as \(user) with a passkey")
        return 0
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? ASAuthorizationError else { return "\(error)" }
        let name =
            switch error.code {
            case .canceled: "canceled"
            case .failed: "failed"
            case .notHandled: "notHandled"
            case .invalidResponse: "invalidResponse"
            case .notInteractive: "notInteractive"
            case .unknown: "unknown"
            }
        return "ASAuthorizationError.\(name) (\(error.code.rawValue)): \(error.failureReason)"
    }
}
