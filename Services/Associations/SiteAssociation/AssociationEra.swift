/// Which association rules a device follows: swcd's behaviour follows the iOS release, and macOS
/// follows the iOS release it shipped with (macOS 11 came with iOS 14's machinery, so macOS N reads
/// files as iOS N + 3). One rule for associationd, the CDN and `kclab aasa check`.
public enum AssociationEra {
    /// The iOS release a device of this platform and major version corresponds to.
    public static func iOSRelease(isMac: Bool, major: Int) -> Int {
        isMac ? major + 3 : major
    }

    /// Whether a device of `era` reads a file through Apple's CDN: iOS 14 and later do, unless
    /// the entry's mode (`?mode=developer`, `?mode=managed`) sends it to the site (`direct`).
    public static func readsThroughCDN(era: Int, direct: Bool) -> Bool {
        era >= 14 && !direct
    }
}

/// Apple's CDN for association files (`app-site-association.cdn-apple.com`): `GET /a/v1/DOMAIN`
/// answers the copy it keeps of DOMAIN's file. The lab's CDN serves the same path.
public enum AppleCDNPath {
    /// The path's prefix, before the domain.
    public static let prefix = "/a/v1/"

    /// The URL of `authority`'s file (a host, with its port when not 443) at the CDN `base`.
    public static func url(base: String, authority: String) -> String {
        base + prefix + authority
    }

    /// Whether `url` asked a CDN rather than the site.
    public static func isCDN(_ url: String) -> Bool {
        url.contains(prefix)
    }
}
