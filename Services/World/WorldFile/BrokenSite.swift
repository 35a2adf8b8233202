/// The catalogue of broken association sites a website can ask for (`brokenSites: true`), each
/// served by the nginx fixture under its own host, `KIND.bad.DOMAIN`, so tests and demos can show
/// every way a device refuses (or tolerates) a site (spec associations.md b).
public enum BrokenSite: String, Hashable, Sendable, CaseIterable {
    /// 301 to the domain's own file: devices follow no redirect.
    case redirect301 = "redirect-301"
    /// 302 to plain http.
    case redirectHTTP = "redirect-http"
    case status404 = "status-404"
    case status403 = "status-403"
    /// 500 until the site recovers (a flag file the lab writes), then the domain's file.
    case flaky500 = "flaky-500"
    /// 503, always.
    case status503 = "status-503"
    /// 131,073 bytes: one byte over the limit.
    case oversized
    /// Exactly 131,072 bytes: accepted.
    case exactLimit = "exact-limit"
    case invalidJSON = "invalid-json"
    /// The domain's file after a UTF-8 byte order mark: tolerated with a warning.
    case byteOrderMark = "bom"
    /// A file that lists no app.
    case appMissing = "app-missing"
    /// The domain's app IDs without their team prefix.
    case noTeamPrefix = "no-team-prefix"
    /// Signed with the certificate of the domain, not of this host.
    case signedByOtherDomain = "signed-other-domain"
    /// A TLS certificate that expired yesterday.
    case expiredCertificate = "expired-certificate"
    /// A TLS certificate from a CA no device trusts.
    case untrustedCA = "untrusted-ca"
    /// The domain's file served as text/plain: tolerated with a warning.
    case wrongContentType = "wrong-content-type"
    /// A server that trickles its answer, one byte a second: a timeout.
    case slow
    /// A 302 to its own file, forever.
    case redirectLoop = "redirect-loop"
    /// The domain's file behind 160 KB of response headers.
    case hugeHeaders = "huge-headers"
    /// Random bytes served as a signed file (`application/pkcs7-mime`).
    case garbageDER = "garbage-der"
    /// A gigabyte of zeros (a sparse file): a body that never ends for a reader's purposes.
    case endless

    /// The host serving this kind for a domain.
    public func host(for domain: String) -> String {
        "\(rawValue).bad.\(domain)"
    }
}
