import HTTPTypes
public import Hummingbird
import NIOCore

/// A page: HTML text, served as `text/html; charset=utf-8` and never cached. Every page is
/// rendered by swift-mustache from a template and a view model (``ConsolePages``), which escapes
/// every value, so nothing here is concatenated into HTML by hand.
public struct HTML: ResponseGenerator, Sendable {
    /// The page's text.
    public let text: String

    /// A page of `text`.
    public init(_ text: String) {
        self.text = text
    }

    /// The answer: 200, `text/html`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        ConsoleResponses.ok(Array(text.utf8), type: "text/html; charset=utf-8")
    }
}

/// The console's answers that are not pages.
enum ConsoleResponses {
    /// The one refusal: 403 with a body that says nothing of the console, its token or its cookie.
    static var forbidden: Response {
        Response(
            status: .forbidden,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "Forbidden\n"))
        )
    }

    /// 200 with `bytes` of `type`, never cached (a page may change when the lab does).
    static func ok(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
