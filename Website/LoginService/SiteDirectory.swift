public import WorldFile

/// Which website a request is for, from its Host: every host of a world website (the domain and
/// its subdomains) shares the domain's accounts.
public struct SiteDirectory: Sendable {
    private let sites: [String: String]

    public init(world: World) {
        var sites: [String: String] = [:]
        for website in world.websites {
            for (host, _) in website.hosts { sites[host] = website.domain }
        }
        self.sites = sites
    }

    /// Every host of `site` (its domain and subdomains), lower-case.
    public func hosts(of site: String) -> Set<String> {
        Set(sites.filter { $0.value == site }.keys)
    }

    /// The site's domain for a Host header value (a port is ignored), or nil for a stranger.
    public func site(forHost host: String?) -> String? {
        guard let host else { return nil }
        let name = host.split(separator: ":").first.map(String.init)?.lowercased() ?? ""
        return sites[name]
    }
}
