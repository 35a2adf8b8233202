import Foundation
import Hummingbird
import Logging

/// The JSON API apps use, with bearer tokens: create an account, log in, who am I, change the
/// password, delete the account, log out. Errors are `{"error", "message"}` with a 4xx status.
struct APIRoutes: Sendable {
    let service: LoginService
    let sites: SiteDirectory

    struct Credentials: Decodable {
        let username: String
        let password: String
    }

    struct PasswordChange: Decodable {
        let currentPassword: String
        let newPassword: String
    }

    struct Confirmation: Decodable {
        let password: String
    }

    struct SessionAnswer: Encodable {
        let username: String
        let token: String
    }

    func add(to router: Router<WebsiteRequestContext>) {
        let api = router.group("api/v1")
        api.post("accounts") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(Credentials.self, request, context)
            let session = try await Self.run { () throws(LoginError) in
                try await service.inPasswordTurn(of: "\(site) \(body.username)") { () throws(LoginError) in
                    try service.createAccount(site: site, username: body.username, password: body.password, kind: .bearer)
                }
            }
            context.logger.info("account created", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "api"])
            return try WebsiteRequest.json(SessionAnswer(username: session.username, token: session.token), status: .created)
        }
        api.post("sessions") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(Credentials.self, request, context)
            let session: LoginService.Session
            do throws(LoginError) {
                session = try await service.inPasswordTurn(of: "\(site) \(body.username)") { () throws(LoginError) in
                    try service.logIn(site: site, username: body.username, password: body.password, kind: .bearer)
                }
            } catch {
                context.logger.notice("sign-in refused", metadata: ["site": "\(site)", "account": "\(body.username)", "reason": "\(error.code)"])
                throw APIError(error)
            }
            context.logger.info("signed in", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "api"])
            return try WebsiteRequest.json(SessionAnswer(username: session.username, token: session.token))
        }
        api.get("me") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            let (_, user) = try bearer(request, site)
            return try WebsiteRequest.json(["username": user, "site": site])
        }
        api.post("password") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (token, user) = try bearer(request, site)
            let body = try await WebsiteRequest.json(PasswordChange.self, request, context)
            try await Self.run { () throws(LoginError) in
                try await service.inPasswordTurn(of: "\(site) \(user)") { () throws(LoginError) in
                    try service.changePassword(site: site, token: token, current: body.currentPassword, new: body.newPassword)
                }
            }
            context.logger.info("password changed", metadata: ["site": "\(site)", "account": "\(user)", "via": "api"])
            return try WebsiteRequest.json(["status": "changed"])
        }
        api.delete("account") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let (token, user) = try bearer(request, site)
            let body = try await WebsiteRequest.json(Confirmation.self, request, context)
            try await Self.run { () throws(LoginError) in
                try await service.inPasswordTurn(of: "\(site) \(user)") { () throws(LoginError) in
                    try service.deleteAccount(site: site, token: token, password: body.password)
                }
            }
            context.logger.info("account deleted", metadata: ["site": "\(site)", "account": "\(user)", "via": "api"])
            return try WebsiteRequest.json(["status": "deleted"])
        }
        api.delete("sessions/current") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            let (token, _) = try bearer(request, site)
            service.logOut(token: token)
            return try WebsiteRequest.json(["status": "signed out"])
        }
    }

    /// The live session of `Authorization: Bearer TOKEN`, else 401.
    private func bearer(_ request: Request, _ site: String) throws -> (token: String, user: String) {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError(
                status: .unauthorized,
                code: "not_signed_in",
                message: "send Authorization: Bearer TOKEN",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
        let token = String(header.dropFirst("Bearer ".count))
        guard let user = service.user(site: site, token: token) else { throw APIError(LoginError.notSignedIn) }
        return (token, user)
    }

    /// A login-service call with its refusal as an API error.
    private static func run<T>(_ body: () async throws(LoginError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw APIError(error)
        }
    }
}
