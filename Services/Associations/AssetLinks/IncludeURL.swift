import Foundation

/// The URL of an included statement list: http or https, a host and port as a site's, then any
/// path (`https://example.com/includes/statements.json`).
public struct IncludeURL: Sendable, Hashable, CustomStringConvertible {
    /// The site that serves it.
    public let site: WebAsset
    /// Everything after the host and port.
    public let path: String

    public init(_ text: String) throws(AssetLinksProblem) {
        let (scheme, rest) = try WebAsset.scheme(of: text, rule: .includeURL, what: "an include")
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = String(rest[..<end])
        guard !authority.contains("@") else { throw AssetLinksProblem(.includeURL, "'\(text)' carries login information") }
        do {
            let (host, port, _) = try WebAsset.authority(authority, scheme: scheme, text: text)
            site = try WebAsset(site: "\(scheme)://\(host):\(port)")
        } catch {
            throw AssetLinksProblem(.includeURL, error.message)
        }
        path = String(rest[end...])
    }

    public var description: String { site.description + path }
}
