public import Foundation
import NIOSSL
public import PostgresNIO

/// Where a PostgreSQL store is, from a URL as libpq spells one:
/// `postgres://USER@HOST:PORT/DATABASE`, `postgresql://…` alike, `?host=/FOLDER` for the Unix
/// socket in FOLDER, `?sslmode=disable|require`. The port defaults to 5432, the user to
/// `postgres`, the database to the user's name. A password never rides in the URL, which shows in
/// `ps`: it comes from `PGPASSWORD` in the environment, as libpq reads it.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var host: String
    public var port: Int
    public var database: String
    /// The folder of the server's Unix socket, when connecting through it.
    public var socketFolder: String?
    public var requireTLS: Bool

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The longest URL read: a location, not a document.
    static let maximumLength = 2048

    public init(url text: String) throws(Invalid) {
        guard text.utf8.count <= Self.maximumLength else { throw Invalid(description: "the store URL is longer than \(Self.maximumLength) bytes") }
        guard let components = URLComponents(string: text), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw Invalid(description: "'\(Self.redacting(text))' is not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        guard components.password == nil else {
            throw Invalid(description: "the store URL holds a password, which would show in ps: set PGPASSWORD instead")
        }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw Invalid(description: "the store URL's port must be 1 to 65535") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        socketFolder = nil
        requireTLS = false
        for item in components.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("host", let folder) where folder.hasPrefix("/"): socketFolder = folder
            case ("sslmode", "disable"): requireTLS = false
            case ("sslmode", "require"): requireTLS = true
            case ("host", _): throw Invalid(description: "the store URL's host= names a socket folder, an absolute path")
            case ("sslmode", let mode): throw Invalid(description: "sslmode '\(mode)' is not known here: disable or require")
            case (let name, _): throw Invalid(description: "the store URL's '\(name)=' is not known here: host= or sslmode=")
            }
        }
        if socketFolder != nil && requireTLS { throw Invalid(description: "a Unix socket takes no TLS: drop sslmode=require") }
    }

    /// postgres-nio's connection settings, with `password` (nil: none).
    public func configuration(password: String? = ProcessInfo.processInfo.environment["PGPASSWORD"]) throws -> PostgresConnection.Configuration {
        if let socketFolder {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)",
                username: user,
                password: password,
                database: database
            )
        }
        let tls: PostgresConnection.Configuration.TLS =
            requireTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The location for logs and errors: no secret is in it.
    public var description: String {
        let place = socketFolder.map { "\($0) (socket)" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(place)/\(database)\(requireTLS ? "?sslmode=require" : "")"
    }

    /// `text` with anything between `://` and `@` cut, for an error about a URL that did not parse.
    static func redacting(_ text: String) -> String {
        guard let start = text.range(of: "://"), let at = text[start.upperBound...].firstIndex(of: "@") else { return text }
        return text[..<start.upperBound] + "…" + text[at...]
    }
}
