import Foundation

/// One rule that reads a site's two files together, for a team shipping an iOS app and an
/// Android app: what the apple-app-site-association file grants the iOS app and what the
/// Digital Asset Links file grants the Android app should be the same (docs/assetlinks.md,
/// "Both platforms").
public struct CrossCheck: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Result: String, Sendable, Hashable, Codable {
        case pass, warn, fail
        /// Neither file grants what the rule compares.
        case notApplicable = "n/a"
    }

    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// `webcredentials` lists the iOS app ⇔ `get_login_creds` names the Android app.
        case sharedCredentials = "shared-credentials"
        /// `applinks` names the iOS app ⇔ Android verifies the host for the app's App Links.
        case appLinks = "app-links"
        /// The paths `applinks` opens in the iOS app, beside Android's, which the app declares.
        case appLinkPaths = "app-link-paths"
        /// The host itself answers both files, 200 and no redirect.
        case sameHost = "same-host"

        public var description: String { rawValue }
    }

    public let rule: Rule
    public let result: Result
    public let detail: String

    public init(_ rule: Rule, _ result: Result, _ detail: String) {
        self.rule = rule
        self.result = result
        self.detail = detail
    }

    public var description: String { "\(result.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(rule): \(detail)" }
}
