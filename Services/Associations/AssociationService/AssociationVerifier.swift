public import AppIdentity
public import CMSSupport
public import Foundation
import ServiceSupport
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
    /// Where fetched files are read: threads of their own, taken in turn by host, so that one
    /// site's file never holds up another site's verdict, and a file that takes more than
    /// `budget` to read is abandoned with a pending verdict.
    private let reading = FairWorkPool(name: "aasa-read", maximumQueued: 1024)
    public let budget: Duration

    public init(
        fetcher: SiteFetcher,
        trust: TrustStore,
        cdn: String?,
        budget: Duration = .seconds(5),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fetcher = fetcher
        self.trust = trust
        self.cdn = cdn
        self.budget = budget
        self.now = now
    }

    /// `evaluator`'s verdict on `attempts`, worked out on the reading threads within the budget.
    private func evaluate(_ evaluator: SiteEvaluator, _ attempts: [FetchAttempt], _ entry: AssociatedDomain, appID: AppID) async -> SiteReport {
        let outcome = await reading.run(key: entry.host, budget: budget) {
            evaluator.evaluate(attempts, service: entry.service, appID: appID.rawValue)
        }
        let reason: String
        switch outcome {
        case .done(let report): return report
        case .busy: reason = "too many association files are waiting to be read"
        case .overBudget: reason = "reading the file took longer than \(budget); abandoned"
        }
        return SiteReport(
            verdict: .pending,
            url: attempts.last?.url ?? "",
            checks: [.fail(.cpuBudget, "\(reason); it is read again at the next retry")],
            services: [:]
        )
    }

    /// The iOS release a device corresponds to (macOS 11 shipped with iOS 14's machinery).
    public static func iOSEra(platform: Platform, version: OSVersion) -> Int {
        AssociationEra.iOSRelease(isMac: platform == .macos, major: version.major)
    }

    /// Where the file for `entry` comes from on a device of this era: iOS 14+ asks the CDN unless
    /// the entry's mode sends it to the site (`direct`).
    public static func readsThroughCDN(era: Int, direct: Bool) -> Bool {
        AssociationEra.readsThroughCDN(era: era, direct: direct)
    }

    public func verify(_ entry: AssociatedDomain, appID: AppID, platform: Platform, version: OSVersion, direct: Bool) async -> SiteReport {
        let era = Self.iOSEra(platform: platform, version: version)
        if era < 9, entry.service == .applinks || entry.service == .appclips {
            return SiteReport(
                verdict: .denied,
                url: "",
                checks: [.fail(.serviceEra, "\(entry.service.rawValue) needs iOS 9 or later; this device runs \(platform.rawValue) \(version)")],
                services: [:]
            )
        }
        let evaluator = SiteEvaluator(host: entry.host, trust: trust, now: now(), era: era)
        if let cdn, Self.readsThroughCDN(era: era, direct: direct) {
            let (attempt, headers) = await fetcher.fetchWithHeaders(AppleCDNPath.url(base: cdn, authority: entry.fileAuthority))
            if case .response(let status, _, _, _, _) = attempt.outcome, status != 200 {
                let reason = headers["apple-failure-reason"] ?? "HTTP \(status)"
                return SiteReport(
                    verdict: .denied,
                    url: attempt.url,
                    checks: [.fail(.cdn, "denied because the CDN told us to stop with HTTP status \(status): \(reason)")],
                    services: [:],
                    throughCDN: true
                )
            }
            var report = await evaluate(evaluator, [attempt], entry, appID: appID)
            report.checks.insert(.pass(.cdn, "read through the CDN (a copy \(headers["age"] ?? "0") s old)"), at: 0)
            report.throughCDN = true
            return report
        }
        let attempts = await fetcher.fetchFile(SiteFetcher.locations(for: entry.fileAuthority, rootOnly: era < 9))
        return await evaluate(evaluator, attempts, entry, appID: appID)
    }
}
