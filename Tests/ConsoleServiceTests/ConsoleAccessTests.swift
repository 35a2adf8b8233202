import ConsoleService
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Who gets in: the token of the first URL, exchanged once for an HttpOnly, SameSite=Strict
/// cookie; every route without that cookie, or with a wrong token, answers the same 403.
@Suite struct ConsoleAccessTests {
    static let routes = ["/", "/overlap", "/overlap.svg", "/console.css", "/nonesuch", "/?x=1"]

    @Test(arguments: routes)
    func everyRouteWithoutTheCookieIs403(_ path: String) async throws {
        try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .forbidden)
            #expect(String(buffer: response.body) == "Forbidden\n", "a body that says nothing")
            #expect(response.headers[.setCookie] == nil)
            #expect(response.headers[.contentSecurityPolicy] == ConsoleHeadersMiddleware<BasicRequestContext>.contentSecurityPolicy)
        }
    }

    /// A wrong token, an empty one, two, one sent by POST, a forged cookie, another console's
    /// cookie: each gets the same 403, and no cookie.
    @Test(arguments: [
        ("/?token=" + String(repeating: "b", count: 64), HTTPRequest.Method.get, ""),
        ("/?token=" + String(repeating: "a", count: 63), .get, ""),
        ("/?token=", .get, ""),
        ("/?token", .get, ""),
        ("/?token=" + String(repeating: "A", count: 64), .get, ""),
        ("/?token=\(Fixtures.token)&token=\(Fixtures.token)", .get, ""),
        ("/?token=\(Fixtures.token)", .post, ""),
        ("/?token=" + String(repeating: "b", count: 64), .get, Fixtures.cookie),
        ("/", .get, "\(Fixtures.access.cookieName)=" + String(repeating: "d", count: 64)),
        ("/", .get, "\(Fixtures.access.cookieName)="),
        ("/", .get, "kclab_console_00000000=" + String(repeating: "c", count: 64)),
        ("/", .get, "\(Fixtures.access.cookieName)=\(Fixtures.token)"),
    ])
    func aWrongTokenOrCookieIs403(_ path: String, _ method: HTTPRequest.Method, _ cookie: String) async throws {
        try await Fixtures.withConsole { client in
            let headers: HTTPFields = cookie.isEmpty ? [:] : [.cookie: cookie]
            let response = try await client.execute(uri: path, method: method, headers: headers)
            #expect(response.status == .forbidden, "\(path) \(method) \(cookie)")
            #expect(String(buffer: response.body) == "Forbidden\n")
            #expect(response.headers[.setCookie] == nil)
        }
    }

    @Test func theRightTokenSetsTheCookieAndRedirectsToThePageWithoutIt() async throws {
        try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: Fixtures.access.entryPath, method: .get)
            #expect(response.status == .seeOther)
            let location = try #require(response.headers[.location])
            #expect(location == "/")
            #expect(!location.contains(Fixtures.token) && !location.contains("token"), "the token leaves the address bar")
            let setCookie = try #require(response.headers[.setCookie])
            let parts = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(parts.first == Fixtures.cookie, "\(setCookie)")
            #expect(Set(parts.dropFirst()) == ["Path=/", "HttpOnly", "SameSite=Strict"], "a session cookie, never sent by another site")
            #expect(!setCookie.contains(Fixtures.token), "the cookie is not the token")
            #expect(String(buffer: response.body).isEmpty)

            let page = try await client.execute(uri: location, method: .get, headers: [.cookie: Fixtures.cookie])
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(!String(buffer: page.body).contains(Fixtures.token), "no page shows the token")
        }
    }

    /// The exchange keeps the page and the rest of the query, and only sends to this server.
    @Test(arguments: [
        ("/overlap?token=\(Fixtures.token)", "/overlap"),
        ("/overlap?view=all&token=\(Fixtures.token)&b=2", "/overlap?view=all&b=2"),
        ("/overlap.svg?token=\(Fixtures.token)", "/overlap.svg"),
        ("//evil.example?token=\(Fixtures.token)", "/"),
    ])
    func theExchangeKeepsThePage(_ path: String, _ expected: String) async throws {
        try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == expected)
        }
    }

    /// With the cookie, an unknown path is 404, not 403: the cookie admits, then the router decides.
    @Test func theCookieOpensEveryRoute() async throws {
        try await Fixtures.withConsole { client in
            for path in ["/", "/overlap", "/overlap.svg", "/console.css"] {
                let response = try await client.execute(uri: path, method: .get, headers: [.cookie: "other=1; " + Fixtures.cookie])
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            let unknown = try await client.execute(uri: "/nonesuch", method: .get, headers: [.cookie: Fixtures.cookie])
            #expect(unknown.status == .notFound)
            #expect(unknown.headers[.contentSecurityPolicy] != nil, "an error carries the headers too")
        }
    }

    /// The secrets never print: not in a description, a debug description or a dump.
    @Test func theAccessNeverPrintsItsSecrets() {
        let access = Fixtures.access
        var dumped = ""
        dump(access, to: &dumped)
        for text in ["\(access)", String(reflecting: access), dumped] {
            #expect(!text.contains(Fixtures.token) && !text.contains(String(repeating: "c", count: 64)), "\(text)")
        }
        #expect("\(access)" == "ConsoleAccess(<redacted>)")
        #expect(access.url(port: 7720) == "http://127.0.0.1:7720/?token=\(Fixtures.token)")
    }

    /// Generated access: 32 random bytes each, as 64 hexadecimal digits; two draws differ.
    @Test func generatedTokensAre32RandomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let first = ConsoleAccess.generate(using: &generator)
        let second = ConsoleAccess.generate(using: &generator)
        let token = String(try #require(first.entryPath.split(separator: "=").last))
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit) && token == token.lowercased())
        #expect(first.entryPath != second.entryPath)
        #expect(first.cookieName.hasPrefix("kclab_console_") && first.cookieName.count == "kclab_console_".count + 8)
    }

    @Test func theDecisionIsAValue() {
        let access = Fixtures.access
        #expect(access.admission(method: .get, path: "/", query: "token=\(Fixtures.token)", cookie: nil) == .exchange(location: "/"))
        #expect(access.admission(method: .head, path: "/overlap", query: "token=\(Fixtures.token)", cookie: nil) == .exchange(location: "/overlap"))
        #expect(access.admission(method: .get, path: "/", query: nil, cookie: String(repeating: "c", count: 64)) == .admit)
        #expect(access.admission(method: .get, path: "/", query: "", cookie: nil) == .refuse)
        #expect(access.admission(method: .get, path: "/\\evil.example", query: "token=\(Fixtures.token)", cookie: nil) == .exchange(location: "/"))
    }
}
