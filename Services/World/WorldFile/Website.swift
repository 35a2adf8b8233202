public import Foundation

/// A website: a registered domain, its subdomains, and the association file each host serves.
public struct Website: Hashable, Sendable {
    /// The domain, such as `example.com`.
    public var domain: String
    /// The file the domain itself serves, if any.
    public var aasa: SiteAssociationFile?
    /// The Digital Asset Links file the domain serves at `/.well-known/assetlinks.json`, if any:
    /// its exact bytes (docs/assetlinks.md).
    public var assetLinks: Data?
    /// Subdomains (`www`, `support`), each serving its own file (seed 002).
    public var subdomains: [Subdomain]
    /// Whether the fixture also serves the catalogue of broken sites, `KIND.bad.DOMAIN`.
    public var brokenSites: Bool
    /// Accounts the login website has from the start (its users can create more).
    public var accounts: [SiteAccount]

    /// A website from its parts.
    public init(
        domain: String,
        aasa: SiteAssociationFile? = nil,
        subdomains: [Subdomain] = [],
        brokenSites: Bool = false,
        accounts: [SiteAccount] = [],
        assetLinks: Data? = nil
    ) {
        self.domain = domain
        self.aasa = aasa
        self.assetLinks = assetLinks
        self.subdomains = subdomains
        self.brokenSites = brokenSites
        self.accounts = accounts
    }

    /// The broken sites' hosts, when asked for.
    public var brokenHosts: [(host: String, kind: BrokenSite)] {
        brokenSites ? BrokenSite.allCases.map { ($0.host(for: domain), $0) } : []
    }

    /// The broken Android files' hosts, when broken sites are asked for and the site has a file.
    public var brokenAssetLinksHosts: [(host: String, kind: BrokenAssetLinks)] {
        brokenSites && assetLinks != nil ? BrokenAssetLinks.allCases.map { ($0.host(for: domain), $0) } : []
    }

    /// The Digital Asset Links file `host` (the domain or one of its subdomains) serves, if any.
    public func assetLinks(of host: String) -> Data? {
        host == domain ? assetLinks : subdomains.first { "\($0.label).\(domain)" == host }?.assetLinks
    }

    /// Every host of the site with the file it serves: the domain first, then each subdomain.
    public var hosts: [(host: String, aasa: SiteAssociationFile?)] {
        [(domain, aasa)] + subdomains.map { ("\($0.label).\(domain)", $0.aasa) }
    }
}

/// An account of a website's login service, declared in the world (a test fixture: the website
/// stores only a salted hash of the password).
public struct SiteAccount: Hashable, Sendable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// 1 to 64 characters: lower-case letters, digits, `.`, `_`, `-`, `@`.
    public static func isValidUsername(_ name: String) -> Bool {
        (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || ".-_@".unicodeScalars.contains($0) }
    }
}

/// A subdomain of a website.
public struct Subdomain: Hashable, Sendable {
    /// The label before the domain: `www` in `www.example.com`.
    public var label: String
    /// The file it serves, if any.
    public var aasa: SiteAssociationFile?
    /// The Digital Asset Links file it serves, if any: its exact bytes.
    public var assetLinks: Data?

    /// A subdomain from its parts.
    public init(label: String, aasa: SiteAssociationFile? = nil, assetLinks: Data? = nil) {
        self.label = label
        self.aasa = aasa
        self.assetLinks = assetLinks
    }
}

/// An apple-app-site-association file as a host serves it.
public struct SiteAssociationFile: Hashable, Sendable {
    /// The exact bytes of the JSON (written compactly from the world's YAML, or read from a file).
    public var json: Data
    /// Whether it is served CMS-signed (`application/pkcs7-mime`) rather than plain `application/json`.
    public var signed: Bool

    /// A file from its parts.
    public init(json: Data, signed: Bool = false) {
        self.json = json
        self.signed = signed
    }
}
