import AuthenticationServices
import DeviceNetwork
import Foundation
import WebAuthn

/// Passkeys on a website's pages, as Safari offers them: the page's passkey form asks the site
/// for options, the browser makes the request for the page's origin (a web browser's
/// `ASPublicKeyCredentialClientData`, which needs no association), and the form posts the answer.
extension Site {
    /// "Sign up with a passkey" on the sign-up page.
    func passkeySignUp() async throws -> Int32 {
        guard let (form, options) = try await passkeyOptions("/signup", id: "passkey-signup", extra: [("username", user)]) else { return 1 }
        guard let creation = options["publicKey"] as? [String: Any], let rp = (creation["rp"] as? [String: Any])?["id"] as? String,
            let challenge = (creation["challenge"] as? String).flatMap(Base64URL.decode),
            let userID = ((creation["user"] as? [String: Any])?["id"] as? String).flatMap(Base64URL.decode)
        else { return refusedOptions(options) }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rp)
        let request = provider.createCredentialRegistrationRequest(
            clientData: ASPublicKeyCredentialClientData(challenge: challenge, origin: origin),
            name: user,
            userID: userID
        )
        guard let credential = await perform(request) as? ASAuthorizationPlatformPublicKeyCredentialRegistration else { return 1 }
        return try await finish(form, options, PasskeyJSON.registration(credential), done: "signed up on \(host) as \(user) with a passkey")
    }

    /// "Sign in with a passkey" on the sign-in page: the user picks one of the site's passkeys.
    func passkeyLogIn() async throws -> Int32 {
        guard let (form, options) = try await passkeyOptions("/login", id: "passkey-login", extra: []) else { return 1 }
        guard let request = options["publicKey"] as? [String: Any], let rp = request["rpId"] as? String,
            let challenge = (request["challenge"] as? String).flatMap(Base64URL.decode)
        else { return refusedOptions(options) }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rp)
        let assertion = provider.createCredentialAssertionRequest(clientData: ASPublicKeyCredentialClientData(challenge: challenge, origin: origin))
        guard let credential = await perform(assertion) as? ASAuthorizationPlatformPublicKeyCredentialAssertion else { return 1 }
        return try await finish(form, options, PasskeyJSON.assertion(credential), done: "signed in with a passkey")
    }

    /// The page's origin: scheme, host and port.
    var origin: String {
        "https://\(host)" + (base.port.map { ":\($0)" } ?? "")
    }

    private func passkeyOptions(_ path: String, id: String, extra: [(String, String)]) async throws -> (HTMLForm, [String: Any])? {
        let page = try await web.get(URL(string: path, relativeTo: base)!.absoluteURL)
        guard let form = HTMLForm.named(id, in: page.body), let optionsPath = form.attributes["data-options"] else {
            print("\(host) offers no passkeys on \(path)")
            return nil
        }
        let answer = try await web.postForm(URL(string: optionsPath, relativeTo: base)!.absoluteURL, form.hidden + extra)
        let options = (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any] ?? [:]
        guard answer.status == 200 else {
            print("\(host) gave no passkey options (HTTP \(answer.status)): \(options["message"] as? String ?? "")")
            return nil
        }
        return (form, options)
    }

    private func refusedOptions(_ options: [String: Any]) -> Int32 {
        print("\(host) gave options the browser cannot read: \(options.keys.sorted())")
        return 1
    }

    private func perform(_ request: ASAuthorizationRequest) async -> (any ASAuthorizationCredential)? {
        do {
            return try await Authorization.perform(request).credential
        } catch let error as ASAuthorizationError {
            print("no passkey: ASAuthorizationError \(error.code.rawValue): \(error.failureReason)")
        } catch {
            print("no passkey: \(error)")
        }
        return nil
    }

    private func finish(_ form: HTMLForm, _ options: [String: Any], _ credential: [String: Any], done: String) async throws -> Int32 {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: credential, options: [.sortedKeys]), as: UTF8.self)
        let fields = form.hidden + [("ceremony", options["ceremony"] as? String ?? ""), ("credential", json)]
        let answer = try await web.postForm(URL(string: form.action, relativeTo: base)!.absoluteURL, fields)
        guard answer.status == 200,
            let name = answer.body.components(separatedBy: "id=\"signed-in-as\">").dropFirst().first?
                .components(separatedBy: "<strong>").dropFirst().first?.components(separatedBy: "</strong>").first
        else {
            let message = answer.body.components(separatedBy: "role=\"alert\">").dropFirst().first?.components(separatedBy: "</p>").first
            print("the site refused the passkey (HTTP \(answer.status)): \(message.map(HTMLForm.unescape) ?? "no message")")
            return 1
        }
        print("\(done): the site signed in \(HTMLForm.unescape(name))")
        return 0
    }
}
