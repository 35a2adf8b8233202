import HTTPTypes
public import Hummingbird

/// The headers every answer of the console carries, a refusal or an error included: nothing is
/// fetched from another origin and no script runs but the console's own file (`/console.js`,
/// which reads `/events`), no other site may frame or embed the pages, and no page sends a
/// referrer.
public struct ConsoleHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `Content-Security-Policy`: the console's own stylesheet, pictures, script and feed, nothing
    /// else (no inline script).
    public static var contentSecurityPolicy: String {
        "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'"
    }

    /// `Referrer-Policy`, which HTTPTypes does not name.
    static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }

    /// The middleware.
    public init() {}

    /// Adds the headers to the answer, or to the error's answer.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        return response
    }
}
