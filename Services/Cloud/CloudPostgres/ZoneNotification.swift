public import CloudZones

/// What a committed batch tells every cloudd on its database, as NOTIFY's payload: the zone it
/// changed and the number of the zone's last change at commit, `LATEST:VIEW/ACCOUNT`. A cloudd
/// that hears it knows the zone's change token without reading it (``PostgresZoneFeed``). The
/// payload of a cloudd from before 2026-12-01, `VIEW/ACCOUNT`, names the zone alone.
public struct ZoneNotification: Sendable, Hashable {
    public let zone: ZoneID
    /// The zone's last change number at commit; nil from an older cloudd.
    public let latest: Int?

    public init(zone: ZoneID, latest: Int?) {
        self.zone = zone
        self.latest = latest
    }

    /// The notification a payload carries; nil for one that names no zone.
    public init?(payload: String) {
        var rest = Substring(payload)
        var latest: Int? = nil
        // A view never starts with a digit, so digits up to a colon are the number.
        if let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]), number >= 0, rest.first?.isNumber == true {
            latest = number
            rest = rest[rest.index(after: colon)...]
        }
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex else { return nil }
        self.init(zone: ZoneID(account: String(rest[rest.index(after: slash)...]), view: String(rest[..<slash])), latest: latest)
    }

    /// The payload NOTIFY sends: `LATEST:VIEW/ACCOUNT` (the latest omitted when unknown).
    public var payload: String {
        (latest.map { "\($0):" } ?? "") + zone.view + "/" + zone.account
    }
}
