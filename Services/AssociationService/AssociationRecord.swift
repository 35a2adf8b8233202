public import Foundation
public import SiteAssociation

/// One association as associationd keeps it: (device, app, service, entitlement entry), its state,
/// why, and when it is fetched again (spec associations.md b.2, b.5: swcutil's fields).
public struct AssociationRecord: Codable, Sendable, Hashable {
    public var device: String
    /// The device's platform and OS version, which decide where the file comes from.
    public var platform: String
    public var osVersion: String
    public var appID: String
    public var service: AssociationService
    /// The entitlement entry, such as `webcredentials:example.com`.
    public var entry: String
    public var state: SiteReport.Verdict
    /// The rule that decided, in words.
    public var reason: String
    /// The URL whose answer decided.
    public var url: String
    /// Failed attempts in a row that left the site pending.
    public var failures: Int
    public var lastChecked: Date
    /// When a pending site is fetched again; nil when it is not (approved, denied, or out of retries).
    public var nextRetry: Date?

    public init(
        device: String,
        platform: String,
        osVersion: String,
        appID: String,
        service: AssociationService,
        entry: String,
        state: SiteReport.Verdict,
        reason: String,
        url: String,
        failures: Int,
        lastChecked: Date,
        nextRetry: Date?
    ) {
        self.device = device
        self.platform = platform
        self.osVersion = osVersion
        self.appID = appID
        self.service = service
        self.entry = entry
        self.state = state
        self.reason = reason
        self.url = url
        self.failures = failures
        self.lastChecked = lastChecked
        self.nextRetry = nextRetry
    }
}

/// When a pending site is tried again: every 3 hours, up to 8 times (SWCREF); after the eighth
/// failure it stays pending with no retry scheduled, until a shared-credential call or a new install
/// asks again (spec associations.md open question 7: our choice).
public enum RetryPolicy {
    public static let interval: TimeInterval = 3 * 3600
    public static let maximumRetries = 8

    /// The record after `report`, fetched at `now`, given the previous record (if any).
    public static func record(
        after report: SiteReport,
        previous: AssociationRecord?,
        device: String,
        platform: String,
        osVersion: String,
        appID: String,
        service: AssociationService,
        entry: String,
        now: Date
    ) -> AssociationRecord {
        let decisive = report.checks.last { $0.result == .fail } ?? report.checks.last
        var record = AssociationRecord(
            device: device,
            platform: platform,
            osVersion: osVersion,
            appID: appID,
            service: service,
            entry: entry,
            state: report.verdict,
            reason: decisive.map { "\($0.rule): \($0.detail)" } ?? "no check was made",
            url: report.url,
            failures: 0,
            lastChecked: now,
            nextRetry: nil
        )
        if report.verdict == .pending {
            record.failures = (previous?.state == .pending ? previous?.failures ?? 0 : 0) + 1
            // The first failure is not a retry: eight retries follow it.
            record.nextRetry = record.failures <= maximumRetries ? now.addingTimeInterval(interval) : nil
        }
        return record
    }
}
