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

extension AssociationRecord {
    /// The entry's domain as written, `*.example.com` for a wildcard; nil for an entry that does not
    /// parse (associationd never stores one).
    public var domain: String? {
        (try? AssociatedDomain(entry)).map { ($0.isWildcard ? "*." : "") + $0.host }
    }

    /// Whether the record is of `app`: its app ID (TEAMID.bundle), or its bundle ID.
    public func isOf(app: String) -> Bool {
        appID == app || appID.hasSuffix("." + app)
    }
}
