import Crypto
import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore

/// The website's request context: forms and JSON bodies are small, so anything over 16 KiB is 413.
public struct WebsiteRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 16 * 1024 }
}

/// What the HTML and API routes share: the site of a request, bodies, answers, the CSRF token.
enum WebsiteRequest {
    static let cookieName = "kl_session"
    static let forwardedPort = HTTPField.Name("X-Forwarded-Port")!

    /// The site the Host names; a host of no world website is 404.
    static func site(_ request: Request, _ directory: SiteDirectory) throws -> String {
        guard let site = directory.site(forHost: request.head.authority) else {
            throw HTTPError(.notFound, message: "no website here")
        }
        return site
    }

    /// The port the page was served on: nginx's `X-Forwarded-Port` (its own listening port, which
    /// nginx sets, whatever the client sent), else 443. A passkey's origin may name it.
    static func servedPort(_ request: Request) -> Int {
        guard let header = request.headers[Self.forwardedPort], let port = Int(header), (1...65535).contains(port) else {
            return 443
        }
        return port
    }

    /// An `application/x-www-form-urlencoded` body; anything else is 400 (or 415 for another type).
    static func form(_ request: Request, _ context: WebsiteRequestContext) async throws -> [String: String] {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            throw HTTPError(.unsupportedMediaType, message: "send the form as application/x-www-form-urlencoded")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        guard let fields = FormBody.fields(String(buffer: buffer)) else { throw HTTPError(.badRequest, message: "the form is not valid") }
        return fields
    }

    /// A JSON body of `type`; not JSON, or not that shape, is 400; another content type 415.
    static func json<T: Decodable>(_ type: T.Type, _ request: Request, _ context: WebsiteRequestContext) async throws -> T {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIError(status: .unsupportedMediaType, code: "unsupported_media_type", message: "send JSON (application/json)")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(status: .badRequest, code: "bad_request", message: "the body is not a valid JSON object with the expected fields")
        }
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.location] = location
        return Response(status: .seeOther, headers: fields)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value)))
        )
    }

    /// The session cookie: HttpOnly, Secure (nginx serves HTTPS), SameSite=Lax.
    static func setSession(_ token: String) -> HTTPFields {
        [.setCookie: "\(cookieName)=\(token); Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=604800"]
    }

    /// The cookie a sign-in or sign-up form is bound to before there is a session: only a page
    /// the site served to this browser carries its CSRF token (login CSRF).
    static let formCookieName = "kl_form"

    /// A fresh form cookie's value, and the header that sets it (SameSite=Strict: never sent
    /// with another site's request).
    static func newFormCookie() -> (value: String, headers: HTTPFields) {
        let value = Data((0..<24).map { _ in UInt8.random(in: .min ... .max) }).map { String(format: "%02x", $0) }.joined()
        return (value, [.setCookie: "\(formCookieName)=\(value); Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=3600"])
    }

    static let clearSession: HTTPFields = [.setCookie: "\(cookieName)=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0"]

    /// The CSRF token of a session: an HMAC of its token, so only pages of that session carry it.
    static func csrf(for token: String, key: SymmetricKey) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}

/// A JSON API refusal: `{"error": CODE, "message": TEXT}` with its status.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try WebsiteRequest.json(["error": code, "message": message], status: status)
        for field in headers { response.headers.append(field) }
        return response
    }

    init(status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    init(_ error: LoginError) {
        var headers: HTTPFields = [:]
        if case .tooManyAttempts(let seconds) = error { headers[.retryAfter] = "\(seconds)" }
        self.init(status: HTTPResponse.Status(code: error.status), code: error.code, message: error.message, headers: headers)
    }
}
