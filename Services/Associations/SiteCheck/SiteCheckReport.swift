public import AssetLinks
public import SiteAssociation

/// `kclab site check`: a site's apple-app-site-association file judged for the iOS app, its
/// Digital Asset Links file judged for the Android app, and the rules that compare the two.
public struct SiteCheckReport: Sendable {
    /// The host both files are for.
    public let host: String
    /// The iOS app, TEAM.BUNDLE.
    public let appID: String
    /// The Android app and its signing certificates.
    public let app: AndroidAppAsset
    /// The association file's verdict for the iOS app's `webcredentials`, as a device reaches it.
    public let apple: SiteReport
    /// The asset-links file's report for the Android app (handle_all_urls and get_login_creds).
    public let android: AssetLinksReport
    public let crossChecks: [CrossCheck]

    /// Whether both platforms share with their app and every rule that compares them holds.
    public var passed: Bool {
        apple.verdict == .approved && android.passed && !crossChecks.contains { $0.result == .fail }
    }

    public init(host: String, appID: String, app: AndroidAppAsset, apple: SiteReport, android: AssetLinksReport) {
        self.host = host
        self.appID = appID
        self.app = app
        self.apple = apple
        self.android = android
        crossChecks = [
            Self.sharedCredentials(host: host, appID: appID, app: app, apple: apple, android: android),
            Self.appLinks(host: host, appID: appID, app: app, apple: apple, android: android),
            Self.appLinkPaths(host: host, appID: appID, apple: apple, android: android),
            Self.sameHost(host: host, apple: apple, android: android),
        ]
    }

    /// The report as `kclab site check` prints it.
    public var lines: [String] {
        var lines = ["iOS: \(apple.url) for \(appID)"]
        lines += apple.checks.map { "  \($0)" }
        for (name, apps) in apple.services.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name): \(apps.isEmpty ? "(no apps)" : apps.joined(separator: ", "))")
        }
        lines.append("  iOS (webcredentials): \(apple.verdict.rawValue)")
        lines.append("Android: \(android.source)/.well-known/assetlinks.json for \(app.packageName)")
        lines += android.lines.dropLast().map { "  \($0)" }
        lines.append("Both platforms")
        lines += crossChecks.map { "  \($0)" }
        lines.append("\(passed ? "passed" : "failed"): \(host) for \(appID) and \(app.packageName)")
        return lines
    }
}

extension SiteCheckReport {
    /// The iOS app's entry in the file, when one was read.
    private static func lists(_ apple: SiteReport, _ service: AssociationService, _ appID: String) -> Bool {
        apple.file?.appIDs(for: service).contains(appID) ?? false
    }

    static func sharedCredentials(host: String, appID: String, app: AndroidAppAsset, apple: SiteReport, android: AssetLinksReport) -> CrossCheck {
        let ios = lists(apple, .webcredentials, appID)
        let linked = android.links(.getLoginCreds)
        switch (ios, linked) {
        case (true, true):
            return CrossCheck(
                .sharedCredentials,
                .pass,
                "webcredentials lists \(appID) and get_login_creds names \(app.packageName): a password saved for \(host) is offered in both apps"
            )
        case (true, false):
            return CrossCheck(
                .sharedCredentials,
                .fail,
                "webcredentials lists \(appID), but no get_login_creds statement names \(app.packageName) under its certificate: Android's Credential Manager does not offer \(host)'s passwords in the Android app. Add (or correct) a statement with relation delegate_permission/common.get_login_creds and target {namespace: android_app, package_name: \(app.packageName), sha256_cert_fingerprints: [\(app.fingerprints[0])]}"
            )
        case (false, true):
            return CrossCheck(
                .sharedCredentials,
                .fail,
                "get_login_creds names \(app.packageName), but webcredentials does not list \(appID): iOS does not offer \(host)'s passwords in the iOS app. Add \(appID) to webcredentials.apps"
            )
        case (false, false):
            return CrossCheck(.sharedCredentials, .warn, "neither file shares \(host)'s passwords with its app (webcredentials, get_login_creds)")
        }
    }

    static func appLinks(host: String, appID: String, app: AndroidAppAsset, apple: SiteReport, android: AssetLinksReport) -> CrossCheck {
        let ios = lists(apple, .applinks, appID)
        let verified = android.opensAppLinks
        let androidWhy = "\(android.appLinksWitness) for \(app.packageName)'s App Links"
        switch (ios, verified) {
        case (true, true):
            return CrossCheck(.appLinks, .pass, "applinks names \(appID) and \(androidWhy): links to \(host) open both apps")
        case (true, false):
            return CrossCheck(
                .appLinks,
                .fail,
                "applinks names \(appID), but \(androidWhy): links to \(host) open the iOS app and Android's browser (a handle_all_urls statement for the app, served without redirect, fixes it)"
            )
        case (false, true):
            return CrossCheck(
                .appLinks,
                .fail,
                "\(androidWhy), but applinks does not name \(appID): links to \(host) open the Android app and Safari. Add a details entry for \(appID)"
            )
        case (false, false):
            return CrossCheck(.appLinks, .notApplicable, "neither file opens \(host)'s links in its app (applinks, handle_all_urls)")
        }
    }

    /// iOS opens only the paths the file gives; Android opens those the app's intent filters
    /// declare, which no file on the site says.
    static func appLinkPaths(host: String, appID: String, apple: SiteReport, android: AssetLinksReport) -> CrossCheck {
        guard lists(apple, .applinks, appID), android.opensAppLinks, let details = apple.file?.appLinks?.details else {
            return CrossCheck(.appLinkPaths, .notApplicable, "\(host)'s links do not open both apps, so their paths are not compared")
        }
        var patterns: [String] = []
        for detail in details where detail.appIDs.contains(appID) || detail.appID == appID {
            if let components = detail.components {
                patterns += components.map { ($0.exclude ? "NOT " : "") + ($0.path ?? "*") }
            } else {
                patterns += detail.paths ?? []
            }
        }
        let android =
            "Android opens the paths the app's intent filters declare (android:path, pathPrefix, pathPattern in AndroidManifest.xml)"
        if patterns.allSatisfy({ $0 == "*" || $0 == "/*" }), !patterns.isEmpty {
            return CrossCheck(.appLinkPaths, .pass, "iOS opens every path of \(host) in \(appID); \(android): declare them all")
        }
        return CrossCheck(
            .appLinkPaths,
            .warn,
            "iOS opens only \(patterns.isEmpty ? "no path" : patterns.joined(separator: ", ")) in \(appID); \(android): declare the same, or a link opens the app on one platform and the browser on the other"
        )
    }

    /// Both files from the host itself, 200, no redirect: a `www` → apex redirect breaks both.
    static func sameHost(host: String, apple: SiteReport, android: AssetLinksReport) -> CrossCheck {
        var problems: [String] = []
        if let redirect = apple.checks.first(where: { $0.rule == .noRedirects && $0.result == .fail }) {
            problems.append("iOS: \(redirect.detail)")
        } else if apple.file == nil, !apple.throughCDN, let failure = apple.checks.first(where: { $0.rule.isTransport && $0.result == .fail }) {
            problems.append("iOS: \(failure.detail)")
        }
        let transport: Set<AssetLinksFinding.Rule> = [.noRedirects, .httpStatus, .https, .reachable]
        if let failure = android.findings.first(where: { transport.contains($0.rule) && $0.result == .fail }) {
            problems.append("Android: \(failure.detail)")
        }
        guard problems.isEmpty else {
            return CrossCheck(
                .sameHost,
                .fail,
                "\(host) must answer both files itself, 200 without redirect: " + problems.joined(separator: "; ")
            )
        }
        if !android.findings.contains(where: { $0.rule == .httpStatus && $0.result == .pass }) || apple.file == nil {
            return CrossCheck(.sameHost, .notApplicable, "a local file was judged: nothing was fetched from \(host)")
        }
        return CrossCheck(.sameHost, .pass, "\(host) answers both files itself, 200 without redirect")
    }
}

extension SiteCheckReport: Encodable {
    private enum CodingKeys: String, CodingKey { case host, appID, packageName, passed, apple, android, crossChecks }
    private enum AppleKeys: String, CodingKey { case verdict, url, checks, services }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(host, forKey: .host)
        try container.encode(appID, forKey: .appID)
        try container.encode(app.packageName, forKey: .packageName)
        try container.encode(passed, forKey: .passed)
        var apple = container.nestedContainer(keyedBy: AppleKeys.self, forKey: .apple)
        try apple.encode(self.apple.verdict, forKey: .verdict)
        try apple.encode(self.apple.url, forKey: .url)
        try apple.encode(self.apple.checks, forKey: .checks)
        try apple.encode(self.apple.services, forKey: .services)
        try container.encode(android, forKey: .android)
        try container.encode(crossChecks, forKey: .crossChecks)
    }
}
