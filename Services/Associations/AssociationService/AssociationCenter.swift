public import AppIdentity
public import AssociationAPI
public import Foundation
import Metrics
import ServiceMetrics
public import SiteAssociation

/// What decides a site for an entry: the network verifier in associationd, a script in tests.
public protocol SiteJudge: Sendable {
    /// Decides a site; `direct` when the entry's mode skips the CDN.
    func verify(_ entry: AssociatedDomain, appID: AppID, platform: Platform, version: OSVersion, direct: Bool) async -> SiteReport
}

extension AssociationVerifier: SiteJudge {}

/// associationd's logic: verify each associated domain when an app is installed, keep the result,
/// retry pending sites on schedule or when the app asks, and answer whether an app is associated.
public final class AssociationCenter: Sendable {
    private let store: AssociationStore
    private let judge: any SiteJudge
    private let now: @Sendable () -> Date

    public init(store: AssociationStore, judge: any SiteJudge, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.judge = judge
        self.now = now
    }

    /// Verifies every entry of an installed app's (already verified) associated-domains entitlement.
    /// `settings` and `developmentSigned` decide which `?mode=` entries the device uses at all.
    public func install(
        device: String,
        platform: Platform,
        version: OSVersion,
        appID: AppID,
        entries: [String],
        settings: AssociationAPI.DeviceSettings = .standard,
        developmentSigned: Bool = true
    ) async throws -> [AssociationRecord] {
        var records: [AssociationRecord] = []
        for text in entries {
            let ignored = (try? AssociatedDomain(text)).flatMap {
                AlternateMode.ignoredReason($0, settings: settings, developmentSigned: developmentSigned)
            }
            records.append(
                try await judged(
                    device: device,
                    platform: platform,
                    version: version,
                    appID: appID,
                    entryText: text,
                    settings: settings,
                    ignored: ignored
                )
            )
        }
        // The settings and every record in one commit: an install is one fsync, never half stored.
        try store.saveInstall(settings: settings, device: device, records: records)
        return records
    }

    /// Fetches `record`'s site again now (a retry, or the app's shared-credential call).
    public func refetch(_ record: AssociationRecord) async throws -> AssociationRecord {
        let settings = (try? store.settings(device: record.device)) ?? .standard
        let updated = try await judged(
            device: record.device,
            platform: record.platform,
            version: record.osVersion,
            appID: record.appID,
            entryText: record.entry,
            settings: settings
        )
        try store.save(updated)
        return updated
    }

    /// Retries every pending site whose time has come; returns the new records.
    public func retryDue() async throws -> [AssociationRecord] {
        var updated: [AssociationRecord] = []
        for record in try store.due(at: now()) {
            updated.append(try await refetch(record))
        }
        return updated
    }

    /// The record that decides whether `appID` on `device` may use `host` for `service`: the entry
    /// naming the host exactly, else the longest wildcard covering it (spec a.2); a pending one is
    /// fetched again first, as a shared-credential call makes swcd do.
    public func association(device: String, appID: AppID, service: AssociationService, host: String) async throws -> AssociationRecord? {
        let candidates = try store.records(device: device, appID: appID).compactMap { record -> (record: AssociationRecord, rank: [Int])? in
            guard record.service == service, let entry = try? AssociatedDomain(record.entry), entry.covers(host) else { return nil }
            // An exact entry beats any wildcard; among wildcards the longest domain wins.
            return (record, [entry.isWildcard ? 0 : 1, entry.host.count])
        }
        guard let best = candidates.max(by: { $0.rank.lexicographicallyPrecedes($1.rank) })?.record else { return nil }
        return best.state == .pending ? try await refetch(best) : best
    }

    /// Every record, optionally of one device and app.
    public func records(device: String? = nil, appID: AppID? = nil) throws -> [AssociationRecord] {
        try store.records(device: device, appID: appID)
    }

    /// The app was deleted: its associations go with it.
    public func remove(device: String, appID: AppID) throws {
        try store.removeApp(device: device, appID: appID)
    }

    /// Decides one entry (fetching its site unless the device ignores the entry) into the record
    /// to store; the caller stores it.
    private func judged(
        device: String,
        platform: Platform,
        version: OSVersion,
        appID: AppID,
        entryText: String,
        settings: AssociationAPI.DeviceSettings,
        ignored: String? = nil
    ) async throws -> AssociationRecord {
        var previous: AssociationRecord? = nil
        var report: SiteReport
        var service = AssociationService(rawValue: String(entryText.prefix { $0 != ":" })) ?? .webcredentials
        switch Result(catching: { () throws(AssociatedDomainError) in try AssociatedDomain(entryText) }) {
        case .success(let entry):
            service = entry.service
            previous = try store.record(device: device, appID: appID, service: entry.service.rawValue, entry: entryText)
            if let ignored {
                report = SiteReport(verdict: .denied, url: "", checks: [.fail(.alternateMode, ignored)], services: [:])
            } else {
                let direct = AlternateMode.fetchesDirectly(entry, settings: settings)
                let started = ContinuousClock.now
                report = await judge.verify(entry, appID: appID, platform: platform, version: version, direct: direct)
                Metrics.Timer(label: "association_fetch_duration_seconds", dimensions: [("source", direct ? "direct" : "cdn")])
                    .record(ContinuousClock.now - started)
            }
        case .failure(let error):
            report = SiteReport(verdict: .denied, url: "", checks: [.fail(.entitlementEntry, error.reason)], services: [:])
        }
        let record = RetryPolicy.record(
            after: report,
            previous: previous,
            device: device,
            platform: platform,
            osVersion: version,
            appID: appID,
            service: service,
            entry: entryText,
            now: now()
        )
        Counter(label: "association_fetches_total", dimensions: [("service", service.rawValue), ("verdict", record.state.rawValue)]).increment()
        return record
    }
}
