import Crypto
import Foundation
import Hummingbird
import Logging

/// The pages a browser uses: sign in, create an account, change the password, delete the account,
/// the signed-in home, sign out. Sessions are cookies; forms that change an account carry a CSRF
/// token bound to the session.
struct HTMLRoutes: Sendable {
    let service: LoginService
    let sites: SiteDirectory
    let csrfKey: SymmetricKey
    let passkeys: PasskeyService

    func add(to router: Router<WebsiteRequestContext>) {
        router.get("/") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            guard let (token, user) = signedIn(request, site) else { return WebsiteRequest.redirect("/login") }
            return WebsiteRequest.html(Pages.home(site: site, username: user, csrf: csrf(token)))
        }
        router.get("/login") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            if signedIn(request, site) != nil { return WebsiteRequest.redirect("/") }
            let (cookie, headers) = formCookie(request)
            return WebsiteRequest.html(Pages.login(site: site, csrf: csrf(cookie)), headers: headers)
        }
        router.post("/login") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (form, cookie) = try await checkedSignInForm(request, context)
            let username = form["username"] ?? ""
            do throws(LoginError) {
                let session = try await service.inPasswordTurn(of: "\(site) \(username)") { () throws(LoginError) in
                    try service.logIn(site: site, username: username, password: form["password"] ?? "", kind: .cookie)
                }
                context.logger.info("signed in", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "form"])
                return WebsiteRequest.redirect("/", headers: WebsiteRequest.setSession(session.token))
            } catch {
                context.logger.notice("sign-in refused", metadata: ["site": "\(site)", "account": "\(username)", "reason": "\(error.code)"])
                return page(for: error, Pages.login(site: site, csrf: csrf(cookie), username: username, error: error.message))
            }
        }
        router.get("/signup") { request, _ in
            let (cookie, headers) = formCookie(request)
            return WebsiteRequest.html(Pages.signup(site: try WebsiteRequest.site(request, sites), csrf: csrf(cookie)), headers: headers)
        }
        router.post("/signup") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (form, cookie) = try await checkedSignInForm(request, context)
            let username = form["username"] ?? ""
            do throws(LoginError) {
                let session = try await service.inPasswordTurn(of: "\(site) \(username)") { () throws(LoginError) in
                    try service.createAccount(site: site, username: username, password: form["password"] ?? "", kind: .cookie)
                }
                context.logger.info("account created", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "form"])
                return WebsiteRequest.redirect("/", headers: WebsiteRequest.setSession(session.token))
            } catch {
                return page(for: error, Pages.signup(site: site, csrf: csrf(cookie), username: username, error: error.message))
            }
        }
        router.get("/password") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            guard let (token, user) = signedIn(request, site) else { return WebsiteRequest.redirect("/login") }
            return WebsiteRequest.html(Pages.changePassword(site: site, username: user, csrf: csrf(token)))
        }
        router.post("/password") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            guard let (token, user) = signedIn(request, site) else { return WebsiteRequest.redirect("/login") }
            let form = try await checkedForm(request, context, token: token)
            do throws(LoginError) {
                try await service.inPasswordTurn(of: "\(site) \(user)") { () throws(LoginError) in
                    try service.changePassword(site: site, token: token, current: form["current_password"] ?? "", new: form["new_password"] ?? "")
                }
                context.logger.info("password changed", metadata: ["site": "\(site)", "account": "\(user)", "via": "form"])
                return WebsiteRequest.html(Pages.home(site: site, username: user, csrf: csrf(token), notice: "Your password was changed."))
            } catch {
                return page(for: error, Pages.changePassword(site: site, username: user, csrf: csrf(token), error: error.message))
            }
        }
        router.get("/delete") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            guard let (token, _) = signedIn(request, site) else { return WebsiteRequest.redirect("/login") }
            return WebsiteRequest.html(Pages.deleteAccount(site: site, csrf: csrf(token)))
        }
        router.post("/delete") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            guard let (token, user) = signedIn(request, site) else { return WebsiteRequest.redirect("/login") }
            let form = try await checkedForm(request, context, token: token)
            do throws(LoginError) {
                try await service.inPasswordTurn(of: "\(site) \(user)") { () throws(LoginError) in
                    try service.deleteAccount(site: site, token: token, password: form["password"] ?? "")
                }
                context.logger.info("account deleted", metadata: ["site": "\(site)", "account": "\(user)", "via": "form"])
                let (cookie, formHeaders) = WebsiteRequest.newFormCookie()
                var headers = WebsiteRequest.clearSession
                for field in formHeaders { headers.append(field) }
                return WebsiteRequest.html(Pages.login(site: site, csrf: csrf(cookie), notice: "Your account was deleted."), headers: headers)
            } catch {
                return page(for: error, Pages.deleteAccount(site: site, csrf: csrf(token), error: error.message))
            }
        }
        router.post("/logout") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            if let (token, _) = signedIn(request, site) {
                _ = try await checkedForm(request, context, token: token)
                service.logOut(token: token)
            }
            return WebsiteRequest.redirect("/login", headers: WebsiteRequest.clearSession)
        }
    }

    /// The session of the request's cookie, if it is live for this site.
    private func signedIn(_ request: Request, _ site: String) -> (token: String, user: String)? {
        guard let token = request.cookies[WebsiteRequest.cookieName]?.value, !token.isEmpty,
            let user = service.user(site: site, token: token)
        else { return nil }
        return (token, user)
    }

    func csrf(_ token: String) -> String {
        WebsiteRequest.csrf(for: token, key: csrfKey)
    }

    /// The form, once its CSRF token is the session's; otherwise 403.
    private func checkedForm(_ request: Request, _ context: WebsiteRequestContext, token: String) async throws -> [String: String] {
        let form = try await WebsiteRequest.form(request, context)
        guard form["csrf"] == csrf(token) else { throw HTTPError(.forbidden, message: "the form is stale or from another site; reload the page") }
        return form
    }

    /// The request's form cookie, or a new one with the header that sets it.
    func formCookie(_ request: Request) -> (value: String, headers: HTTPFields) {
        if let value = request.cookies[WebsiteRequest.formCookieName]?.value, value.count == 48 { return (value, [:]) }
        return WebsiteRequest.newFormCookie()
    }

    /// A sign-in or sign-up form, once its CSRF token is its form cookie's; otherwise 403, so
    /// another site cannot sign a browser in to an account of its choosing.
    func checkedSignInForm(_ request: Request, _ context: WebsiteRequestContext) async throws -> ([String: String], String) {
        let form = try await WebsiteRequest.form(request, context)
        guard let cookie = request.cookies[WebsiteRequest.formCookieName]?.value, !cookie.isEmpty, form["csrf"] == csrf(cookie) else {
            throw HTTPError(.forbidden, message: "the form is stale or from another site; reload the page")
        }
        return (form, cookie)
    }

    /// A page shown again with the error, under the error's status.
    func page(for error: LoginError, _ html: String) -> Response {
        var headers: HTTPFields = [:]
        if case .tooManyAttempts(let seconds) = error { headers[.retryAfter] = "\(seconds)" }
        return WebsiteRequest.html(html, status: HTTPResponse.Status(code: error.status), headers: headers)
    }
}
