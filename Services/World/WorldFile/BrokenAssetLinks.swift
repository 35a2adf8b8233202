/// The Android side of the catalogue of broken sites (`brokenSites: true` on a website that
/// declares `assetlinks:`): each serves a broken Digital Asset Links file under its own host,
/// `KIND.badlinks.DOMAIN`, so `kclab assetlinks check` can show each verdict (docs/assetlinks.md).
public enum BrokenAssetLinks: String, Hashable, Sendable, CaseIterable {
    /// 301 to the domain's file: neither Google's API nor Android follows it (REDIRECT, FAILURE_REDIRECT).
    case redirect
    /// The domain's file as text/plain: Google's API refuses it, Android does not look.
    case wrongContentType = "wrong-content-type"
    /// The domain's file with its fingerprints in lower case: Google refuses them, Android reads
    /// them and never matches.
    case lowercaseFingerprint = "lowercase-fingerprint"
    /// A file that includes itself: the fetch budget is exhausted.
    case includeLoop = "include-loop"
    /// A file that includes the domain's file over plain http.
    case httpInclude = "http-include"
    /// The domain's file padded to 1 MiB and a byte, past Android's limit.
    case oversized
    /// One statement object where the list should be.
    case objectBody = "object-body"

    /// The host serving this kind for a domain.
    public func host(for domain: String) -> String {
        "\(rawValue).badlinks.\(domain)"
    }
}
