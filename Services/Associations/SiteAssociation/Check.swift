import Foundation

/// One rule applied to a site and what came of it: the unit of every verdict KeychainLab gives
/// about an association, from `kclab aasa check` and from associationd alike.
public struct Check: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Result: String, Sendable, Hashable, Codable {
        case pass, warn, fail
        /// The rule could not apply: a local file was judged, so nothing about its transport.
        case notApplicable = "n/a"
    }

    /// The rules about how the file was fetched (TLS, status, redirects, time), which judging a
    /// local file cannot apply.
    public static let transportRules: Set<String> = ["https-trust", "http-status", "no-redirects", "transport", "timeout", "reachable"]

    /// The rule's name, such as `https-only` or `app-listed`.
    public let rule: String
    public let result: Result
    /// What was found; for a file, with its line and column.
    public let detail: String

    public init(_ rule: String, _ result: Result, _ detail: String) {
        self.rule = rule
        self.result = result
        self.detail = detail
    }

    public static func pass(_ rule: String, _ detail: String) -> Check { Check(rule, .pass, detail) }
    public static func warn(_ rule: String, _ detail: String) -> Check { Check(rule, .warn, detail) }
    public static func fail(_ rule: String, _ detail: String) -> Check { Check(rule, .fail, detail) }

    /// This check as not applicable to a local file, when it is a transport rule.
    public func forLocalFile() -> Check {
        Check.transportRules.contains(rule) ? Check(rule, .notApplicable, "not applicable: a local file was judged, nothing was fetched") : self
    }

    public var description: String { "\(result.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(rule): \(detail)" }
}

/// The services an associated domain can be for (spec associations.md a.1).
public enum AssociationService: String, Sendable, Hashable, Codable, CaseIterable {
    case webcredentials, applinks, activitycontinuation, appclips, authsrv
}
