import Foundation
import Hummingbird
import Logging
import WebAuthn

/// The pages' passkey forms, as a browser's page script uses them: the form (with its CSRF token)
/// asks for the options (`data-options`), the browser's `navigator.credentials` answers, and the
/// form posts the answer (`ceremony`, `credential` as WebAuthn's JSON) to its action, which starts
/// a cookie session. The checks are the API's (PasskeyService); a page's ceremony is bound to the
/// browser's form cookie, so only the browser that asked for the options can answer them.
extension HTMLRoutes {
    func addPasskeyPages(to router: Router<WebsiteRequestContext>) {
        router.post("/passkeys/registration/options") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (form, cookie) = try await checkedSignInForm(request, context)
            let begun: PasskeyMessages.Begun<PasskeyMessages.CreationOptions>
            do throws(LoginError) {
                begun = try passkeys.beginRegistration(site: site, username: form["username"], token: nil, binding: LoginService.digest(cookie))
            } catch {
                throw APIError(error)
            }
            return try WebsiteRequest.json(begun)
        }
        router.post("/passkeys/authentication/options") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (_, cookie) = try await checkedSignInForm(request, context)
            let begun: PasskeyMessages.Begun<PasskeyMessages.RequestOptions>
            do throws(LoginError) {
                begun = try passkeys.beginAuthentication(site: site, username: nil, binding: LoginService.digest(cookie))
            } catch {
                throw APIError(error)
            }
            return try WebsiteRequest.json(begun)
        }
        router.post("/passkeys/registration") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (form, cookie) = try await checkedSignInForm(request, context)
            do throws(LoginError) {
                let finish = try Self.finish(RegistrationResponseJSON.self, form)
                let session = try passkeys.finishRegistration(
                    site: site,
                    port: WebsiteRequest.servedPort(request),
                    finish,
                    kind: .cookie,
                    binding: LoginService.digest(cookie)
                )
                context.logger.info("passkey registered", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "form"])
                return WebsiteRequest.redirect("/", headers: WebsiteRequest.setSession(session.token))
            } catch {
                context.logger.notice("passkey registration refused", metadata: ["site": "\(site)", "reason": "\(error.code)"])
                return page(for: error, Pages.signup(site: site, csrf: csrf(cookie), error: error.message))
            }
        }
        router.post("/passkeys/authentication") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (form, cookie) = try await checkedSignInForm(request, context)
            do throws(LoginError) {
                let finish = try Self.finish(AuthenticationResponseJSON.self, form)
                let session = try passkeys.finishAuthentication(
                    site: site,
                    port: WebsiteRequest.servedPort(request),
                    finish,
                    kind: .cookie,
                    binding: LoginService.digest(cookie)
                )
                context.logger.info("signed in", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "passkey"])
                return WebsiteRequest.redirect("/", headers: WebsiteRequest.setSession(session.token))
            } catch {
                context.logger.notice("passkey sign-in refused", metadata: ["site": "\(site)", "reason": "\(error.code)"])
                return page(for: error, Pages.login(site: site, csrf: csrf(cookie), error: error.message))
            }
        }
    }

    /// The form's `ceremony` and `credential` (WebAuthn Level 3's JSON, as text).
    private static func finish<Credential: Codable & Sendable>(
        _ type: Credential.Type,
        _ form: [String: String]
    ) throws(LoginError)
        -> PasskeyMessages.Finish<Credential>
    {
        guard let ceremony = form["ceremony"], let text = form["credential"],
            let credential = try? JSONDecoder().decode(Credential.self, from: Data(text.utf8))
        else { throw .passkeyRefused(code: "malformed", reason: "the form carries no ceremony or no credential in WebAuthn's JSON") }
        return PasskeyMessages.Finish(ceremony: ceremony, credential: credential)
    }
}
