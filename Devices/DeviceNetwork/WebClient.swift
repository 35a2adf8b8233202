import AsyncHTTPClient
import DeviceProtocol
public import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// An app's way to the lab's websites, over HTTPS with the device's trust roots and the device's
/// DNS (both from the environment the device launches apps with), keeping cookies like a browser
/// tab. Redirects are followed for GETs and after form posts (303), as browsers do.
///
/// Unchecked: the client is immutable and thread-safe; the cookie jar is read and written only
/// while holding `lock`.
public final class WebClient: @unchecked Sendable {
    /// An answer: status, headers, body, and the URL it came from (after redirects).
    public struct Page: Sendable {
        public let status: Int
        public let headers: [(String, String)]
        public let body: String
        public let url: URL

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    private let client: HTTPClient
    private let lock = NSLock()
    /// Cookies by host, name → value.
    private var cookies: [String: [String: String]] = [:]

    /// A client for the device the process runs on.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trust = environment[DeviceEnvironment.webTrust] {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trust))
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        configuration.dnsOverride = Self.resolutions(environment[DeviceEnvironment.resolve] ?? "")
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    /// `host=ADDR:PORT,…` → host → address (the port goes in the URL; see ``url(_:)``).
    static func resolutions(_ text: String) -> [String: String] {
        var map: [String: String] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            map[String(parts[0])] = String(parts[1].split(separator: ":").first ?? "")
        }
        return map
    }

    /// The device's port for a host it resolves (the lab serves every site on one port).
    static func port(for host: String, in text: String) -> Int? {
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == host, let port = parts[1].split(separator: ":").last.flatMap({ Int($0) }) { return port }
        }
        return nil
    }

    /// `https://example.com/login` as the device reaches it: with the lab's port when it has one.
    public static func url(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        guard var components = URLComponents(string: text), components.scheme == "https", let host = components.host else {
            throw Failure(description: "'\(text)' is not an https URL")
        }
        if components.port == nil, let port = port(for: host, in: environment[DeviceEnvironment.resolve] ?? "") {
            components.port = port
        }
        guard let url = components.url else { throw Failure(description: "'\(text)' is not a URL") }
        return url
    }

    /// GET, following redirects.
    public func get(_ url: URL) async throws -> Page {
        try await send(.GET, url, body: nil, contentType: nil, headers: [])
    }

    /// POSTs a form, following the redirect that answers it.
    public func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> Page {
        let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try await send(.POST, url, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded", headers: [])
    }

    /// Sends JSON (any JSONSerialization object) with an optional bearer token; no redirects.
    public func json(_ method: String, _ url: URL, _ object: [String: Any]?, bearer: String? = nil) async throws -> Page {
        let body = try object.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        let headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
        return try await send(HTTPMethod(rawValue: method), url, body: body, contentType: body == nil ? nil : "application/json", headers: headers)
    }

    private func send(_ method: HTTPMethod, _ url: URL, body: Data?, contentType: String?, headers: [(String, String)]) async throws -> Page {
        var method = method
        var url = url
        var body = body
        for _ in 0..<6 {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body, let contentType {
                request.headers.add(name: "Content-Type", value: contentType)
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            if let cookie = cookieHeader(for: url) { request.headers.add(name: "Cookie", value: cookie) }
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            store(response.headers, for: url)
            let page = Page(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: String(buffer: bytes),
                url: url
            )
            guard [301, 302, 303].contains(page.status), let location = page.header("Location"),
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            else { return page }
            (method, url, body) = (.GET, next, nil)
        }
        throw Failure(description: "too many redirects from \(url)")
    }

    private func cookieHeader(for url: URL) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard let jar = cookies[url.host ?? ""], !jar.isEmpty else { return nil }
        return jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    private func store(_ headers: HTTPHeaders, for url: URL) {
        lock.lock()
        defer { lock.unlock() }
        for value in headers["Set-Cookie"] {
            guard let pair = value.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let cookie = String(pair[pair.index(after: equals)...])
            let expired = value.lowercased().contains("max-age=0")
            cookies[url.host ?? "", default: [:]][name] = expired || cookie.isEmpty ? nil : cookie
        }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }
}
