import HTTPTypes
public import Hummingbird

/// Performs ``ConsoleAccess``'s decision for every request, before any route: a request it
/// refuses gets the same 403 whatever it asked for, an unknown path included, so that nothing
/// says what the console serves to whoever has no token.
public struct ConsoleAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    private let access: ConsoleAccess

    /// The middleware of `access`.
    public init(access: ConsoleAccess) {
        self.access = access
    }

    /// Admits, exchanges the token for the cookie (a 303 to the page without the token), or refuses.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let cookie = request.cookies[access.cookieName]?.value
        switch access.admission(method: request.method, path: request.uri.path, query: request.uri.query, cookie: cookie) {
        case .admit:
            return try await next(request, context)
        case .exchange(let location):
            var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
            // A session cookie (no Max-Age): it goes when the browser closes, and with it the access.
            response.setCookie(Cookie(name: access.cookieName, value: access.sessionValue, path: "/", httpOnly: true, sameSite: .strict))
            return response
        case .refuse:
            return ConsoleResponses.forbidden
        }
    }
}
