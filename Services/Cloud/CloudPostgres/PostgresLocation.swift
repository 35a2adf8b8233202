public import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL store is, from a URL as libpq spells one:
/// `postgres://USER@HOST:PORT/DATABASE`, `postgresql://…` alike, `?host=/FOLDER` for the Unix
/// socket in FOLDER, `?sslmode=disable|require`, and cloudd's own `?connections=N` (how many
/// connections a cloudd opens to the store at most, 1 to 64, default 8; each serves one call at
/// a time, on a thread of its own). The port defaults to 5432, the user to
/// `postgres`, the database to the user's name. Several servers, `HOST1:PORT1,HOST2:PORT2`, are a
/// primary and its standbys: cloudd keeps to the one that takes writes
/// (``PostgresServers``; libpq's `target_session_attrs=read-write`, which the URL may say). A
/// password never rides in the URL, which shows in `ps`: it comes from `PGPASSWORD` in the
/// environment, as libpq reads it.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    /// The servers, in the order they are tried.
    public var servers: [Server]
    public var database: String
    /// The folder of the server's Unix socket, when connecting through it.
    public var socketFolder: String?
    public var requireTLS: Bool
    /// How many connections a cloudd keeps to the store at most (`?connections=N`).
    public var connections: Int

    /// The connections a store gets when its URL does not say, and the most it may say.
    public static let defaultConnections = 8
    static let maximumConnections = 64

    public struct Server: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The first server's host and port.
    public var host: String { servers[0].host }
    public var port: Int { servers[0].port }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The most servers one URL names.
    static let maximumServers = 8

    /// The longest URL read: a location, not a document.
    static let maximumLength = 2048

    public init(url text: String) throws(Invalid) {
        guard text.utf8.count <= Self.maximumLength else { throw Invalid(description: "the store URL is longer than \(Self.maximumLength) bytes") }
        let (single, others) = try Self.splittingServers(text)
        guard let components = URLComponents(string: single), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw Invalid(description: "'\(Self.redacting(text))' is not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        guard components.password == nil else {
            throw Invalid(description: "the store URL holds a password, which would show in ps: set PGPASSWORD instead")
        }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let first = Server(host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1", port: components.port ?? 5432)
        servers = [first] + others
        guard servers.allSatisfy({ (1...65535).contains($0.port) }) else { throw Invalid(description: "the store URL's port must be 1 to 65535") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        socketFolder = nil
        requireTLS = false
        connections = Self.defaultConnections
        for item in components.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("host", let folder) where folder.hasPrefix("/"): socketFolder = folder
            case ("sslmode", "disable"): requireTLS = false
            case ("sslmode", "require"): requireTLS = true
            case ("host", _): throw Invalid(description: "the store URL's host= names a socket folder, an absolute path")
            case ("sslmode", let mode): throw Invalid(description: "sslmode '\(mode)' is not known here: disable or require")
            case ("target_session_attrs", "read-write"): break
            case ("target_session_attrs", _): throw Invalid(description: "cloudd writes: target_session_attrs can only be read-write")
            case ("connections", let count):
                guard let count = Int(count), (1...Self.maximumConnections).contains(count) else {
                    throw Invalid(description: "the store URL's connections= must be a whole number from 1 to \(Self.maximumConnections)")
                }
                connections = count
            case (let name, _):
                throw Invalid(
                    description: "the store URL's '\(name)=' is not known here: host=, sslmode=, target_session_attrs= or connections="
                )
            }
        }
        if socketFolder != nil && requireTLS { throw Invalid(description: "a Unix socket takes no TLS: drop sslmode=require") }
        if socketFolder != nil && servers.count > 1 { throw Invalid(description: "a Unix socket is one server: name one host") }
    }

    /// `text` with only its first server, and the others read: the hosts between `@` (or `://`)
    /// and the path, split at commas. A host in brackets is an IPv6 address.
    static func splittingServers(_ text: String) throws(Invalid) -> (single: String, others: [Server]) {
        guard let start = text.range(of: "://") else { return (text, []) }
        let rest = text[start.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostsStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        let hosts = authority[hostsStart...].split(separator: ",", omittingEmptySubsequences: false)
        guard hosts.count > 1 else { return (text, []) }
        guard hosts.count <= maximumServers else { throw Invalid(description: "the store URL names more than \(maximumServers) servers") }
        var others: [Server] = []
        for host in hosts.dropFirst() {
            guard let colon = host.lastIndex(of: ":"), !host.hasSuffix("]"), let port = Int(host[host.index(after: colon)...]) else {
                throw Invalid(description: "each further server of the store URL needs HOST:PORT, not '\(host.prefix(80))'")
            }
            let name = host[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            guard !name.isEmpty else { throw Invalid(description: "a server of the store URL has no host") }
            others.append(Server(host: name, port: port))
        }
        return (String(text[..<hostsStart]) + String(hosts[0]) + String(text[authorityEnd...]), others)
    }

    /// postgres-nio's connection settings for each server, with `password` (nil: none).
    public func servers(password: String? = ProcessInfo.processInfo.environment["PGPASSWORD"]) throws -> PostgresServers {
        if let socketFolder {
            return PostgresServers([
                PostgresConnection.Configuration(
                    unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)",
                    username: user,
                    password: password,
                    database: database
                )
            ])
        }
        let tls: PostgresConnection.Configuration.TLS =
            requireTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        return PostgresServers(
            servers.map { server in
                PostgresConnection.Configuration(
                    host: server.host,
                    port: server.port,
                    username: user,
                    password: password,
                    database: database,
                    tls: tls
                )
            }
        )
    }

    /// The location for logs and errors: no secret is in it.
    public var description: String {
        let place = socketFolder.map { "\($0) (socket)" } ?? servers.map(\.description).joined(separator: ",")
        let options = (requireTLS ? ["sslmode=require"] : []) + (connections == Self.defaultConnections ? [] : ["connections=\(connections)"])
        return "postgres://\(user)@\(place)/\(database)" + (options.isEmpty ? "" : "?" + options.joined(separator: "&"))
    }

    /// `text` with anything between `://` and `@` cut, for an error about a URL that did not parse.
    static func redacting(_ text: String) -> String {
        guard let start = text.range(of: "://"), let at = text[start.upperBound...].firstIndex(of: "@") else { return text }
        return text[..<start.upperBound] + "…" + text[at...]
    }
}
