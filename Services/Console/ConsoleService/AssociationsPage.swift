import AppIdentifiers
public import AssociationAPI
import Foundation
import SiteAssociation

/// The Associations page's view model: device × app × entitlement entry as associationd holds
/// them, each with its state (approved, denied, or waiting for a retry at a time), where the
/// file came from (the CDN or the site) and every check with its verdict. Counts by state first,
/// so a fleet's thousands of rows read as three numbers; at most ``rowLimit`` rows below them.
///
/// Plain values only, none optional (see ``WorldPage``); the template escapes every one.
public struct AssociationsPage: Sendable {
    /// The world's name.
    public var world: String
    /// The console's pages, this one current.
    public var navigation: [NavigationLink]
    /// `12 associations: 9 approved, 2 denied, 1 pending.`
    public var summary: String
    /// The rows shown.
    public var rows: [Row]
    /// Whether there is any.
    public var hasRows: Bool
    /// `Showing 500 of 12,000: narrow by device or state.`, or empty.
    public var truncated: String
    /// Whether rows were left out.
    public var hasTruncated: Bool
    /// Why associationd could not be read, or empty.
    public var failure: String
    /// Whether it could not.
    public var hasFailure: Bool
    /// The states, for the form's list.
    public var states: [FormChoice]
    /// The device filter as given.
    public var device: String
    /// The state filter as given.
    public var state: String

    /// One association.
    public struct Row: Sendable {
        public var device: String
        public var appID: String
        public var entry: String
        /// `approved`, `denied`, `pending`.
        public var state: String
        /// `retrying at 2026-12-08T01:50:00Z (3 failures)`, or empty.
        public var retry: String
        /// `the CDN` or `the site`.
        public var source: String
        public var url: String
        /// The decisive check in words.
        public var reason: String
        public var checks: [CheckRow]
    }

    /// One check of a decision.
    public struct CheckRow: Sendable {
        public var rule: String
        /// `pass`, `warn`, `fail`, `n/a`.
        public var result: String
        public var detail: String
    }

    /// How many rows a page shows.
    public static let rowLimit = 500

    /// The page of `records` (or of the failure to read them), device names from `names`.
    public init(
        world: String,
        records: Result<[AssociationRecord], any Error>,
        names: [String: String],
        filter: (device: String, state: String)
    ) {
        self.world = world
        navigation = NavigationLink.all(current: .associations)
        (device, state) = filter
        let all: [AssociationRecord]
        switch records {
        case .success(let records):
            all = records.filter { record in filter.state.isEmpty || record.state.rawValue == filter.state }
            failure = ""
        case .failure(let error):
            all = []
            failure = "associationd did not answer: \(error)"
        }
        let counts = Dictionary(grouping: all, by: \.state.rawValue).mapValues(\.count)
        let counted = ["approved", "denied", "pending"].compactMap { state in counts[state].map { "\($0) \(state)" } }
        summary = "\(all.count) associations" + (counted.isEmpty ? "." : ": " + counted.joined(separator: ", ") + ".")
        let name = { (record: AssociationRecord) in names[record.device] ?? record.device }
        let sorted = all.sorted { (name($0), $0.appID.rawValue, $0.entry) < (name($1), $1.appID.rawValue, $1.entry) }
        rows = sorted.prefix(Self.rowLimit).map { record in
            Row(
                device: name(record),
                appID: record.appID.rawValue,
                entry: record.entry,
                state: record.state.rawValue,
                retry: record.nextRetry.map { "retrying at \($0.formatted(.iso8601)) (\(record.failures) failed)" } ?? "",
                source: record.throughCDN ? "the CDN" : "the site",
                url: record.url,
                reason: record.reason,
                checks: record.checks.map { CheckRow(rule: $0.rule.rawValue, result: $0.result.rawValue, detail: $0.detail) }
            )
        }
        hasRows = !rows.isEmpty
        hasFailure = !failure.isEmpty
        states = ["approved", "denied", "pending"].map { FormChoice(name: $0, selected: $0 == filter.state) }
        truncated = all.count > Self.rowLimit ? "Showing \(Self.rowLimit) of \(all.count): narrow by device or state." : ""
        hasTruncated = !truncated.isEmpty
    }
}
