import Foundation
import Hummingbird
import Logging
import WebAuthn

/// The passkey API (docs/passkeys.md): options, then the authenticator's answer, for passkey
/// sign-up (or adding a passkey to the signed-in account) and passkey sign-in. Each refusal is
/// `{"error": "passkey_…", "message"}` naming the check that failed, and is logged.
struct PasskeyRoutes: Sendable {
    let passkeys: PasskeyService
    let sites: SiteDirectory

    struct AuthenticationStart: Decodable {
        let username: String?
    }

    struct Listed: Encodable {
        let id: String
        let signCount: UInt32
        let backupEligible: Bool
        let backedUp: Bool
    }

    func add(to router: Router<WebsiteRequestContext>) {
        let api = router.group("api/v1/passkeys")
        api.post("registration/options") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(PasskeyMessages.RegistrationStart.self, request, context)
            let token = Self.bearerToken(request)
            let begun = try Self.run { () throws(LoginError) in try passkeys.beginRegistration(site: site, username: body.username, token: token) }
            return try WebsiteRequest.json(begun)
        }
        api.post("registration") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(PasskeyMessages.Finish<RegistrationResponseJSON>.self, request, context)
            let session = try Self.run(context, site: site, "passkey registration refused") { () throws(LoginError) in
                try passkeys.finishRegistration(site: site, port: WebsiteRequest.servedPort(request), body)
            }
            context.logger.info("passkey registered", metadata: ["site": "\(site)", "account": "\(session.username)"])
            return try WebsiteRequest.json(APIRoutes.SessionAnswer(username: session.username, token: session.token), status: .created)
        }
        api.post("authentication/options") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(AuthenticationStart.self, request, context)
            let begun = try Self.run { () throws(LoginError) in try passkeys.beginAuthentication(site: site, username: body.username) }
            return try WebsiteRequest.json(begun)
        }
        api.post("authentication") { request, context in
            let site = try WebsiteRequest.site(request, sites)
            let body = try await WebsiteRequest.json(PasskeyMessages.Finish<AuthenticationResponseJSON>.self, request, context)
            let session = try Self.run(context, site: site, "passkey sign-in refused") { () throws(LoginError) in
                try passkeys.finishAuthentication(site: site, port: WebsiteRequest.servedPort(request), body)
            }
            context.logger.info("signed in", metadata: ["site": "\(site)", "account": "\(session.username)", "via": "passkey"])
            return try WebsiteRequest.json(APIRoutes.SessionAnswer(username: session.username, token: session.token))
        }
        api.get("") { request, _ in
            let site = try WebsiteRequest.site(request, sites)
            guard let token = Self.bearerToken(request) else { throw APIError(LoginError.notSignedIn) }
            let listed = try Self.run { () throws(LoginError) in try passkeys.list(site: site, token: token) }
            return try WebsiteRequest.json(
                listed.map {
                    Listed(id: Base64URL.encode($0.credentialID), signCount: $0.signCount, backupEligible: $0.backupEligible, backedUp: $0.backedUp)
                }
            )
        }
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst("Bearer ".count))
    }

    private static func run<T>(_ body: () throws(LoginError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw APIError(error)
        }
    }

    /// Runs a ceremony's last step; a refusal is logged with its code (never a key or a token).
    private static func run<T>(
        _ context: WebsiteRequestContext,
        site: String,
        _ message: Logger.Message,
        _ body: () throws(LoginError) -> T
    ) throws -> T {
        do {
            return try body()
        } catch {
            context.logger.notice(message, metadata: ["site": "\(site)", "reason": "\(error.code)", "detail": "\(error.message)"])
            throw APIError(error)
        }
    }
}
