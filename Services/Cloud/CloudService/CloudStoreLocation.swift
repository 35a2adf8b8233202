public import CloudPostgres
public import Foundation

/// Where cloudd keeps its zones: `sqlite:PATH` (a database file; the default is `zones.sqlite` in
/// cloudd's state folder) or a `postgres://USER@HOST:PORT/DATABASE` URL (``PostgresLocation``),
/// which several cloudd replicas may share (docs/scale.md).
public enum CloudStoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(URL)
    case postgres(PostgresLocation)

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `--store`'s value.
    public init(parsing text: String) throws(Invalid) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty, !path.hasSuffix("/") else { throw Invalid(description: "sqlite: names the database file: sqlite:PATH") }
            self = .sqlite(URL(fileURLWithPath: path))
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            do {
                self = .postgres(try PostgresLocation(url: text))
            } catch {
                throw Invalid(description: error.description)
            }
        } else {
            // Not repeated: a mistyped URL may hold a password.
            throw Invalid(description: "the store is sqlite:PATH or postgres://USER@HOST:PORT/DATABASE")
        }
    }

    /// The location for logs: no secret is in it.
    public var description: String {
        switch self {
        case .sqlite(let file): "sqlite:\(file.path)"
        case .postgres(let location): location.description
        }
    }
}
