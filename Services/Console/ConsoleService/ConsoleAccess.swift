public import HTTPTypes

/// Who may use the console: whoever holds the token in the URL `kclab up` prints, as Jupyter
/// does. The token (32 random bytes, as 64 hexadecimal digits) is exchanged on the first request
/// for a session cookie (another 32 random bytes), so that the token leaves the address bar, the
/// history and every later request. Both are compared in constant time, and neither is ever
/// printed: the description is `<redacted>`.
///
/// The decision is a value (``Admission``) that ``ConsoleAccessMiddleware`` performs, so it is
/// tested without a server.
public struct ConsoleAccess: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How many random bytes the token and the session cookie each hold.
    public static let secretLength = 32

    /// The name of the query parameter that carries the token.
    public static let tokenParameter = "token"

    /// What to do with a request.
    public enum Admission: Hashable, Sendable {
        /// It carries the session cookie: serve it.
        case admit
        /// It carries the right token: set the cookie and redirect to `location`, the same page
        /// without the token.
        case exchange(location: String)
        /// Anything else: 403, saying nothing.
        case refuse
    }

    private let token: [UInt8]
    private let session: [UInt8]

    /// The session cookie's name. It holds a number drawn with the secrets, so that two consoles
    /// on one machine (two labs, on two ports of 127.0.0.1, where a browser keeps one set of
    /// cookies) do not overwrite each other's cookie.
    public let cookieName: String

    /// Access from its secrets (``secretLength`` bytes each) and the number in the cookie's name.
    public init(token: [UInt8], session: [UInt8], instance: UInt32) {
        precondition(token.count == Self.secretLength && session.count == Self.secretLength, "a console secret is 32 bytes")
        self.token = Array(Self.hex(token).utf8)
        self.session = Array(Self.hex(session).utf8)
        cookieName = "kclab_console_" + Self.hex(withUnsafeBytes(of: instance.bigEndian) { Array($0) })
    }

    /// Fresh access, its secrets drawn from `generator` (the system's in the console; a seeded one
    /// in tests).
    public static func generate(using generator: inout some RandomNumberGenerator) -> ConsoleAccess {
        let token = (0..<secretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let session = (0..<secretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return ConsoleAccess(token: token, session: session, instance: UInt32.random(in: .min ... .max, using: &generator))
    }

    /// The path of the first URL, with the token: `/?token=…`.
    public var entryPath: String {
        "/?\(Self.tokenParameter)=" + String(decoding: token, as: UTF8.self)
    }

    /// The first URL, with the token: `http://127.0.0.1:PORT/?token=…`.
    public func url(host: String = "127.0.0.1", port: Int) -> String {
        "http://\(host):\(port)" + entryPath
    }

    /// The session cookie's value, for the `Set-Cookie` header of an exchange.
    var sessionValue: String {
        String(decoding: session, as: UTF8.self)
    }

    /// What to do with a request for `path` with `query` (as sent, without `?`) and the value of
    /// the console's cookie, if it sent one. The token is compared as sent: its digits need no
    /// escaping, so an escaped one is not the token.
    ///
    /// A token in the query decides alone: the right one, once, in a GET (or HEAD), is exchanged for the
    /// cookie; any other (a wrong one, two, in a POST) is refused, whatever cookie comes with it.
    /// Without a token, the right cookie admits and anything else is refused.
    public func admission(method: HTTPRequest.Method, path: String, query: String?, cookie: String?) -> Admission {
        let fields = (query ?? "").split(separator: "&").map(String.init)
        let isToken = { (field: String) in field == Self.tokenParameter || field.hasPrefix(Self.tokenParameter + "=") }
        let tokens = fields.filter(isToken)
        guard tokens.isEmpty else {
            let given = tokens[0].dropFirst(Self.tokenParameter.count + 1)
            guard method == .get || method == .head, tokens.count == 1, Self.equal(Array(given.utf8), token) else {
                return .refuse
            }
            // Only a path of this server: `//host` and `/\host` would send the browser elsewhere.
            let page = path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\") ? path : "/"
            let rest = fields.filter { !isToken($0) }.joined(separator: "&")
            return .exchange(location: rest.isEmpty ? page : page + "?" + rest)
        }
        guard let cookie, Self.equal(Array(cookie.utf8), session) else { return .refuse }
        return .admit
    }

    /// Whether `given` is `secret`, in a time that depends on their lengths only (the length of a
    /// secret is no secret: 64 digits).
    static func equal(_ given: [UInt8], _ secret: [UInt8]) -> Bool {
        guard given.count == secret.count else { return false }
        var difference: UInt8 = 0
        for index in secret.indices {
            difference |= given[index] ^ secret[index]
        }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Never the secrets.
    public var description: String { "ConsoleAccess(<redacted>)" }

    /// Never the secrets.
    public var debugDescription: String { description }

    /// No children: `dump` and the debugger show no secret either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
