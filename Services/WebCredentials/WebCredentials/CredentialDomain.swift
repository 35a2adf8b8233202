import Foundation
import SiteAssociation

/// The host and optional port an `fqdn` argument names (d.3 step 2), and whether the app's
/// associated-domains entitlement lists it for `webcredentials` (d.3 step 3).
public struct CredentialDomain: Hashable, Sendable {
    public let host: String
    public let port: Int?

    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Parses `fqdn` as the device's release does: before iOS 14 as the host and port of the URL
    /// `https://<fqdn>` (case kept); from iOS 14 as a service specifier, `host[:port][?mode=…]`
    /// (host lower-cased). `nil` when there is no host.
    public init?(_ fqdn: String, behaviour: BrokerBehaviour) {
        if behaviour.matchesEntriesByHost {
            guard let entry = try? AssociatedDomain("webcredentials:" + fqdn) else { return nil }
            self.init(host: (entry.isWildcard ? "*." : "") + entry.host, port: entry.port)
        } else {
            guard let url = URLComponents(string: "https://" + fqdn), let host = url.host, !host.isEmpty else { return nil }
            self.init(host: host, port: url.port)
        }
    }

    /// Whether `entries` (the app's verified entitlement) grant this domain for `webcredentials`.
    public func isEntitled(by entries: [String], behaviour: BrokerBehaviour) -> Bool {
        let prefix = "webcredentials:"
        if !behaviour.matchesEntriesByHost {
            // Exact, case-sensitive text: an entry with a port, a mode or `*.` never matches.
            return entries.contains { $0.hasPrefix(prefix) && $0.dropFirst(prefix.count) == host }
        }
        return entries.contains { text in
            guard let entry = try? AssociatedDomain(text), entry.service == .webcredentials, !entry.isWildcard else { return false }
            return entry.host == host.lowercased() && (port == nil || entry.port == port)
        }
    }

    /// How the domain is written: `host` or `host:port`.
    public var description: String {
        port.map { "\(host):\($0)" } ?? host
    }
}
