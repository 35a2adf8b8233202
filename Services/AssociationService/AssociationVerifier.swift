public import AppIdentity
public import CMSSupport
public import Foundation
public import SiteAssociation
public import SiteAssociationFetch

/// Decides one entitlement entry for one app on one device, as swcd would: where the file comes
/// from by OS version and mode (spec associations.md b.1), then every rule of `SiteEvaluator`.
public final class AssociationVerifier: Sendable {
    private let fetcher: SiteFetcher
    private let trust: TrustStore
    /// The Apple-like CDN's base URL; nil makes every device fetch directly.
    private let cdn: String?
    private let now: @Sendable () -> Date

    public init(fetcher: SiteFetcher, trust: TrustStore, cdn: String?, now: @escaping @Sendable () -> Date = { Date() }) {
        self.fetcher = fetcher
        self.trust = trust
        self.cdn = cdn
        self.now = now
    }

    /// The iOS release a device corresponds to (macOS 11 shipped with iOS 14's machinery).
    public static func iOSEra(platform: Platform, version: OSVersion) -> Int {
        platform == .macos ? version.major + 3 : version.major
    }

    /// Where the file for `entry` comes from on a device of this era: iOS 14+ asks the CDN unless
    /// the entry's mode sends it to the site (`direct`).
    public static func readsThroughCDN(era: Int, direct: Bool) -> Bool {
        era >= 14 && !direct
    }

    public func verify(_ entry: AssociatedDomain, appID: String, platform: Platform, version: OSVersion, direct: Bool) async -> SiteReport {
        let era = Self.iOSEra(platform: platform, version: version)
        if era < 9, entry.service == .applinks || entry.service == .appclips {
            return SiteReport(
                verdict: .denied,
                url: "",
                checks: [.fail("service-era", "\(entry.service.rawValue) needs iOS 9 or later; this device runs \(platform.rawValue) \(version)")],
                services: [:]
            )
        }
        let evaluator = SiteEvaluator(host: entry.host, trust: trust, now: now(), era: era)
        if let cdn, Self.readsThroughCDN(era: era, direct: direct) {
            let (attempt, headers) = await fetcher.fetchWithHeaders("\(cdn)/a/v1/\(entry.fileAuthority)")
            if case .response(let status, _, _, _, _) = attempt.outcome, status != 200 {
                let reason = headers["apple-failure-reason"] ?? "HTTP \(status)"
                return SiteReport(
                    verdict: .denied,
                    url: attempt.url,
                    checks: [.fail("cdn", "denied because the CDN told us to stop with HTTP status \(status): \(reason)")],
                    services: [:]
                )
            }
            var report = evaluator.evaluate([attempt], service: entry.service, appID: appID)
            report.checks.insert(.pass("cdn", "read through the CDN (a copy \(headers["age"] ?? "0") s old)"), at: 0)
            return report
        }
        let attempts = await fetcher.fetchFile(SiteFetcher.locations(for: entry.fileAuthority, rootOnly: era < 9))
        return evaluator.evaluate(attempts, service: entry.service, appID: appID)
    }
}
