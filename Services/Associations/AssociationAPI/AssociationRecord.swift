public import AppIdentity
public import Foundation
public import SiteAssociation

/// One association as associationd keeps it: (device, app, service, entitlement entry), its state,
/// every check that decided it, and when it is fetched again (spec associations.md b.2, b.5:
/// swcutil's fields). Everything a reader needs is a value here; nothing is parsed back from text.
public struct AssociationRecord: Codable, Sendable, Hashable {
    public var device: String
    /// The device's platform and OS version, which decide where the file comes from.
    public var platform: Platform
    public var osVersion: OSVersion
    /// The iOS release whose rules decided (``AssociationEra``: macOS N reads files as iOS N + 3).
    public var era: Int
    public var appID: AppID
    public var service: AssociationService
    /// The entitlement entry, such as `webcredentials:example.com`.
    public var entry: String
    public var state: SiteReport.Verdict
    /// The decisive check in words, `rule: detail`: the last failure, else the last check.
    public var reason: String
    /// Every check of the decision, in the order they were made.
    public var checks: [Check]
    /// The URL whose answer decided.
    public var url: String
    /// Whether the file came from the Apple-like CDN rather than from the site.
    public var throughCDN: Bool
    /// Failed attempts in a row that left the site pending.
    public var failures: Int
    public var lastChecked: Date
    /// When a pending site is fetched again; nil when it is not (approved, denied, or out of retries).
    public var nextRetry: Date?

    public init(
        device: String,
        platform: Platform,
        osVersion: OSVersion,
        appID: AppID,
        service: AssociationService,
        entry: String,
        report: SiteReport,
        failures: Int,
        lastChecked: Date,
        nextRetry: Date?
    ) {
        self.device = device
        self.platform = platform
        self.osVersion = osVersion
        self.era = AssociationEra.iOSRelease(isMac: platform == .macos, major: osVersion.major)
        self.appID = appID
        self.service = service
        self.entry = entry
        self.state = report.verdict
        self.checks = report.checks
        self.reason = Self.reason(report.checks)
        self.url = report.url
        self.throughCDN = report.throughCDN
        self.failures = failures
        self.lastChecked = lastChecked
        self.nextRetry = nextRetry
    }

    /// The decisive check in words: the last failure, else the last check.
    static func reason(_ checks: [Check]) -> String {
        (checks.last { $0.result == .fail } ?? checks.last).map { "\($0.rule): \($0.detail)" } ?? "no check was made"
    }

    private enum CodingKeys: String, CodingKey {
        case device, platform, osVersion, era, appID, service, entry, state, reason, checks, url, throughCDN, failures, lastChecked, nextRetry
    }

    /// Reads a record; one stored before the era, the checks and the source were kept gets them
    /// from what it has (its platform and version, its reason, its URL).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        platform = try container.decode(Platform.self, forKey: .platform)
        osVersion = try container.decode(OSVersion.self, forKey: .osVersion)
        era = try container.decodeIfPresent(Int.self, forKey: .era) ?? AssociationEra.iOSRelease(isMac: platform == .macos, major: osVersion.major)
        appID = try container.decode(AppID.self, forKey: .appID)
        service = try container.decode(AssociationService.self, forKey: .service)
        entry = try container.decode(String.self, forKey: .entry)
        state = try container.decode(SiteReport.Verdict.self, forKey: .state)
        reason = try container.decode(String.self, forKey: .reason)
        checks = try container.decodeIfPresent([Check].self, forKey: .checks) ?? []
        url = try container.decode(String.self, forKey: .url)
        throughCDN = try container.decodeIfPresent(Bool.self, forKey: .throughCDN) ?? AppleCDNPath.isCDN(url)
        failures = try container.decode(Int.self, forKey: .failures)
        lastChecked = try container.decode(Date.self, forKey: .lastChecked)
        nextRetry = try container.decodeIfPresent(Date.self, forKey: .nextRetry)
    }
}

extension AssociationRecord {
    /// The entry's domain as written, `*.example.com` for a wildcard; nil for an entry that does not
    /// parse (associationd never stores one).
    public var domain: String? {
        (try? AssociatedDomain(entry)).map { ($0.isWildcard ? "*." : "") + $0.host }
    }

    /// Whether the record is of `app`: its app ID (TEAMID.bundle), or its bundle ID.
    public func isOf(app: String) -> Bool {
        appID.rawValue == app || appID.bundleID.rawValue == app
    }
}
