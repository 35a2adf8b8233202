import Foundation

/// One rule applied to a site and what came of it: the unit of every verdict KeychainLab gives
/// about an association, from `kclab aasa check` and from associationd alike.
public struct Check: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Result: String, Sendable, Hashable, Codable {
        case pass, warn, fail
        /// The rule could not apply: a local file was judged, so nothing about its transport.
        case notApplicable = "n/a"
    }

    /// Every rule a check can apply, named as `kclab aasa check` prints it: one vocabulary for the
    /// association library, associationd, the CDN and kclab (stored by its name).
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        // How the file was fetched (the transport rules, which a local file cannot apply).
        case httpsTrust = "https-trust"
        case httpStatus = "http-status"
        case noRedirects = "no-redirects"
        case transport
        case timeout
        case reachable
        // How the file was served and signed.
        case sizeLimit = "size-limit"
        case contentType = "content-type"
        case signature
        case signedFileRequired = "signed-file-required"
        // The file's syntax and shape.
        case byteOrderMark = "byte-order-mark"
        case jsonSyntax = "json-syntax"
        case topLevelObject = "top-level-object"
        case schema
        case unknownKey = "unknown-key"
        case serviceType = "service-type"
        case appsMissing = "apps-missing"
        case appsType = "apps-type"
        case applinksApps = "applinks-apps"
        case detailsType = "details-type"
        case appIdType = "app-id-type"
        case appIdsEmpty = "app-ids-empty"
        case appIdRepeated = "app-id-repeated"
        case appIdFormat = "app-id-format"
        case pathsType = "paths-type"
        case componentsType = "components-type"
        case componentType = "component-type"
        case excludeWildcardItem = "exclude-wildcard-item"
        case defaultsType = "defaults-type"
        case variablesType = "variables-type"
        case undefinedVariable = "undefined-variable"
        case mixedFormats = "mixed-formats"
        case unreachablePattern = "unreachable-pattern"
        case patternSlash = "pattern-slash"
        // What the file says of the app.
        case servicePresent = "service-present"
        case appListed = "app-listed"
        case urlMatch = "url-match"
        // The device's side: its era, the CDN, the entry, the budget.
        case serviceEra = "service-era"
        case cdn
        case cdnCopy = "cdn-copy"
        case cdnCache = "cdn-cache"
        case cdnEra = "cdn-era"
        case alternateMode = "alternate-mode"
        case entitlementEntry = "entitlement-entry"
        case cpuBudget = "cpu-budget"

        /// The rule's name, such as `app-listed`.
        public var description: String { rawValue }

        /// Whether the rule is about how the file was fetched (TLS, status, redirects, time),
        /// which judging a local file cannot apply.
        public var isTransport: Bool {
            switch self {
            case .httpsTrust, .httpStatus, .noRedirects, .transport, .timeout, .reachable: true
            default: false
            }
        }
    }

    /// The rule applied.
    public let rule: Rule
    public let result: Result
    /// What was found; for a file, with its line and column.
    public let detail: String

    public init(_ rule: Rule, _ result: Result, _ detail: String) {
        self.rule = rule
        self.result = result
        self.detail = detail
    }

    public static func pass(_ rule: Rule, _ detail: String) -> Check { Check(rule, .pass, detail) }
    public static func warn(_ rule: Rule, _ detail: String) -> Check { Check(rule, .warn, detail) }
    public static func fail(_ rule: Rule, _ detail: String) -> Check { Check(rule, .fail, detail) }

    /// This check as not applicable to a local file, when it is a transport rule.
    public func forLocalFile() -> Check {
        rule.isTransport ? Check(rule, .notApplicable, "not applicable: a local file was judged, nothing was fetched") : self
    }

    public var description: String { "\(result.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(rule): \(detail)" }
}

/// The services an associated domain can be for (spec associations.md a.1).
public enum AssociationService: String, Sendable, Hashable, Codable, CaseIterable {
    case webcredentials, applinks, activitycontinuation, appclips, authsrv
}
