public import AppIdentity
public import AssociationAPI
public import Foundation
public import SiteAssociation

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
        platform: Platform,
        osVersion: OSVersion,
        appID: AppID,
        service: AssociationService,
        entry: String,
        now: Date
    ) -> AssociationRecord {
        var record = AssociationRecord(
            device: device,
            platform: platform,
            osVersion: osVersion,
            appID: appID,
            service: service,
            entry: entry,
            report: report,
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
