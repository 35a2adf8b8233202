/// One entry of the `com.apple.developer.associated-domains` entitlement:
/// `<service>:<fully qualified domain>[:port][?mode=developer|managed|developer+managed]`,
/// with a leading `*.` for subdomains (spec associations.md a.1, a.2).
public struct AssociatedDomain: Sendable, Hashable, CustomStringConvertible {
    public enum Mode: String, Sendable, Hashable, Codable {
        case developer
        case managed
        case developerManaged = "developer+managed"
    }

    public let service: AssociationService
    /// The domain, lower-cased, without the `*.` of a wildcard.
    public let host: String
    /// `*.host`: the subdomains of `host`, not `host` itself.
    public let isWildcard: Bool
    public let port: Int?
    public let mode: Mode?

    /// The entry as written.
    public let entry: String

    /// Parses an entry; a malformed one is an error that says what is wrong.
    public init(_ entry: String) throws(AssociatedDomainError) {
        self.entry = entry
        guard let colon = entry.firstIndex(of: ":") else {
            throw AssociatedDomainError(entry, "it has no service: write service:domain, such as webcredentials:example.com")
        }
        let serviceName = String(entry[..<colon])
        guard let service = AssociationService(rawValue: serviceName) else {
            let known = AssociationService.allCases.map(\.rawValue).joined(separator: ", ")
            throw AssociatedDomainError(entry, "'\(serviceName)' is not a service (\(known))")
        }
        self.service = service
        var rest = entry[entry.index(after: colon)...]
        var mode: Mode? = nil
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            guard query.hasPrefix("mode="), let parsed = Mode(rawValue: String(query.dropFirst(5))) else {
                throw AssociatedDomainError(entry, "'?\(query)' is not a mode: use ?mode=developer, ?mode=managed or ?mode=developer+managed")
            }
            mode = parsed
            rest = rest[..<question]
        }
        self.mode = mode
        if rest.contains("://") || rest.contains("/") {
            throw AssociatedDomainError(entry, "the domain has a scheme or a path: write the host name alone, such as example.com")
        }
        var port: Int? = nil
        if let portColon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: portColon)...]), (1...65535).contains(number) else {
                throw AssociatedDomainError(entry, "'\(rest[rest.index(after: portColon)...])' is not a port number")
            }
            guard service != .applinks else {
                throw AssociatedDomainError(entry, "applinks entries do not support a port (TN3155)")
            }
            port = number
            rest = rest[..<portColon]
        }
        self.port = port
        var host = rest.lowercased()
        isWildcard = host.hasPrefix("*.")
        if isWildcard {
            guard service != .appclips else { throw AssociatedDomainError(entry, "appclips entries may not use a wildcard") }
            host = String(host.dropFirst(2))
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }),
            !host.hasPrefix("."), !host.hasSuffix("."), !host.contains("..")
        else {
            throw AssociatedDomainError(
                entry,
                "'\(rest)' is not a host name (letters, digits, '-' and '.'; international names in Punycode, xn--…)"
            )
        }
        self.host = host
    }

    /// Whether this entry covers `candidate` (lower-cased): exactly, or as a subdomain of a wildcard.
    public func covers(_ candidate: String) -> Bool {
        let name = candidate.lowercased()
        return isWildcard ? name.hasSuffix("." + host) : name == host
    }

    /// The host (and port) whose file decides this entry: a wildcard's domain after `*.`.
    public var fileAuthority: String {
        port.map { "\(host):\($0)" } ?? host
    }

    public var description: String { entry }
}

/// An associated-domains entry that cannot be read.
public struct AssociatedDomainError: Error, Sendable, Hashable, CustomStringConvertible {
    public let entry: String
    public let reason: String

    init(_ entry: String, _ reason: String) {
        self.entry = entry
        self.reason = reason
    }

    public var description: String { "'\(entry)': \(reason)" }
}
