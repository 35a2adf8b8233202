import Foundation

/// A website as asset links name it: `http[s]://host[:port]`, nothing after it, not even `/`.
/// The scheme and host compare without case, a host's trailing dot is dropped and a default
/// port (80, 443) is the same as none, as Google's API compares sites (its compatibility tests
/// 2204, 2205, 4405, 4406); http and https are different sites with their own files.
public struct WebAsset: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int
    /// Whether the text gave the scheme's default port explicitly (`:443`), which works but the
    /// format says to leave out.
    public let namesDefaultPort: Bool

    /// Reads a `site` value, or says which rule it breaks.
    public init(site text: String) throws(AssetLinksProblem) {
        let (scheme, rest) = try Self.scheme(of: text, rule: .webSite, what: "a site")
        if rest.contains("@") { throw AssetLinksProblem(.webSite, "'\(text)' carries login information (user@)") }
        if rest.contains("?") { throw AssetLinksProblem(.webSite, "'\(text)' carries query parameters") }
        if rest.contains("#") { throw AssetLinksProblem(.webSite, "'\(text)' carries a fragment identifier", androidReads: true) }
        if let slash = rest.firstIndex(of: "/") {
            // Android's WebAsset accepts a final / (Google's API does not).
            throw AssetLinksProblem(
                .webSite,
                "'\(text)' has a path: a site cannot contain one, not even a final /",
                androidReads: rest[slash...] == "/"
            )
        }
        let (host, port, named) = try Self.authority(String(rest), scheme: scheme, text: text)
        self.scheme = scheme
        self.host = host
        self.port = port
        namesDefaultPort = named
    }

    /// The site a file at `https://HOST/.well-known/assetlinks.json` speaks for.
    public init(secureHost host: String) throws(AssetLinksProblem) {
        try self.init(site: "https://\(host)")
    }

    /// A site as a command names it: a domain (`example.com`, `example.com:8443`), which is
    /// HTTPS, or the site's URL (`https://example.com`, `http://example.com`). With `finalSlash`,
    /// the URL may end in `/` (`https://example.com/`, as `kclab aasa check` reads it); a site in
    /// a statement or a query to Google's API may not.
    public init(argument text: String, finalSlash: Bool = false) throws(AssetLinksProblem) {
        guard text.contains("://") else {
            try self.init(secureHost: text)
            return
        }
        let trimmed = finalSlash && text.hasSuffix("/") && !text.hasSuffix("//") ? String(text.dropLast()) : text
        try self.init(site: trimmed)
    }

    /// The scheme (http or https, lower-case) of a URL and what follows `://`, or the problem
    /// under `rule`, naming the URL as `what`.
    static func scheme(of text: String, rule: AssetLinksFinding.Rule, what: String) throws(AssetLinksProblem) -> (String, Substring) {
        guard let separator = text.range(of: "://") else {
            throw AssetLinksProblem(rule, "'\(text)' is not a valid URL: write \(what) as https://host…")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw AssetLinksProblem(rule, "'\(text)' is a non-HTTP URL: \(what) is http:// or https://")
        }
        return (scheme, text[separator.upperBound...])
    }

    /// The host (lower-case, without a trailing dot), the port and whether a default port was written.
    static func authority(_ text: String, scheme: String, text whole: String) throws(AssetLinksProblem) -> (String, Int, Bool) {
        let fallback = scheme == "https" ? 443 : 80
        var host = text
        var port = fallback
        var named = false
        if let colon = text.lastIndex(of: ":") {
            let digits = text[text.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(digits), number <= 65_535
            else {
                throw AssetLinksProblem(.webSite, "'\(whole)' is not a valid URL: the port '\(digits)' is not 0 to 65535")
            }
            host = String(text[..<colon])
            port = number
            named = number == fallback
        }
        if host.hasSuffix(".") { host.removeLast() }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !host.isEmpty && host.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                    && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
            }
        guard valid else {
            throw AssetLinksProblem(.webSite, "'\(whole)' is not a valid URL: '\(host)' is not a host name (no wildcards, no spaces)")
        }
        return (host.lowercased(), port, named)
    }

    /// Whether the site is reached over HTTPS.
    public var isSecure: Bool { scheme == "https" }

    /// `scheme://host`, with the port only when it is not the scheme's default.
    public var description: String {
        let fallback = scheme == "https" ? 443 : 80
        return "\(scheme)://\(host)\(port == fallback ? "" : ":\(port)")"
    }

    /// `host[:port]`, the port only when it is not the scheme's default: where both of a site's
    /// files are fetched from.
    public var authority: String {
        let fallback = scheme == "https" ? 443 : 80
        return port == fallback ? host : "\(host):\(port)"
    }

    /// The URL of its statement list.
    public var statementListURL: String { "\(description)/.well-known/assetlinks.json" }

    public static func == (lhs: WebAsset, rhs: WebAsset) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }
}
