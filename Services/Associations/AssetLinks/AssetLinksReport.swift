/// What `kclab assetlinks check` says of a site's statement list: how it was served, what each
/// statement and include gave, and for an app, whether each relation links it under each of its
/// certificates.
public struct AssetLinksReport: Sendable, Hashable, Codable {
    /// One question answered: does the site link the app by this relation under this certificate.
    public struct Link: Sendable, Hashable, Codable {
        public let relation: AssetRelation
        public let packageName: String
        public let fingerprint: String
        public let linked: Bool
    }

    /// What Android's verifier (Android 12 and later, AOSP StatementService's DomainVerifier and
    /// VerifyStatus) decides for the app's App Links on this host.
    public enum AndroidVerdict: String, Sendable, Hashable, Codable {
        case success = "SUCCESS"
        /// A 301 or 302 answer.
        case failureRedirect = "FAILURE_REDIRECT"
        /// No usable answer, or no handle_all_urls statement for the app.
        case failureRejectedByServer = "FAILURE_REJECTED_BY_SERVER"
        /// Its parser threw (a problem Google's API would skip one statement for), retried later.
        case failureUnknown = "FAILURE_UNKNOWN"
    }

    /// The site the list speaks for.
    public let source: String
    public var findings: [AssetLinksFinding]
    /// How many statements were read (includes followed).
    public var statements: Int
    public var links: [Link]
    /// Android's verdict for the app's App Links, when an app was asked about.
    public var androidVerdict: AndroidVerdict?
    /// The error codes Google's API (and its Statement List tester) gives, in the order met; none
    /// when it reads the list cleanly.
    public var googleErrors: [AssetLinksErrorCode]

    /// Whether every rule held: no failed finding.
    public var passed: Bool { !findings.contains { $0.result == .fail } }

    /// Judges `resolved`, the statements of `source`'s list with its includes followed, for
    /// `app` (its package signed by any of its certificates), by `relations`.
    public init(
        source: WebAsset,
        served: [AssetLinksFinding],
        resolved: ResolvedStatements,
        app: AndroidAppAsset?,
        relations: [AssetRelation]
    ) {
        self.source = source.description
        findings = served + resolved.findings
        statements = resolved.statements.count
        links = []
        var codes: [AssetLinksErrorCode] = []
        for code in findings.filter({ $0.result == .fail }).compactMap(\.code) where !codes.contains(code) { codes.append(code) }
        googleErrors = codes
        guard let app else { return }
        let packageName = app.packageName
        let fingerprints = app.fingerprints
        androidVerdict = Self.android(findings, statements: resolved.androidStatements, app: packageName, fingerprints: fingerprints)
        for relation in relations {
            for fingerprint in fingerprints {
                let linked = resolved.statements.links(relation, toApp: packageName, fingerprint: fingerprint)
                links.append(Link(relation: relation, packageName: packageName, fingerprint: fingerprint, linked: linked))
                if linked {
                    findings.append(AssetLinksFinding(.linked, .pass, "\(source) links \(packageName) (\(fingerprint)) by \(relation)"))
                    continue
                }
                let listed = resolved.statements.fingerprints(of: packageName, for: relation)
                let why =
                    listed.isEmpty
                    ? "no statement gives \(packageName) \(relation)"
                    : "the file lists \(packageName) under \(listed.joined(separator: ", ")) only: with Play App Signing, publish the app signing key's SHA-256 (Play Console, App integrity), not the upload key's"
                findings.append(AssetLinksFinding(.linked, .fail, "\(source) does not link \(packageName) (\(fingerprint)) by \(relation): \(why)"))
            }
        }
    }

    /// Android's decision, in the order its DomainVerifier makes it: a redirect; no usable
    /// answer; a parser that threw; then whether a handle_all_urls statement names the app
    /// under one of its certificates.
    static func android(_ findings: [AssetLinksFinding], statements: [AssetStatement], app: String, fingerprints: [String]) -> AndroidVerdict {
        let failed = Set(findings.filter { $0.result == .fail }.map(\.rule))
        if failed.contains(.noRedirects) { return .failureRedirect }
        if !failed.isDisjoint(with: [.https, .reachable, .httpStatus, .sizeLimit]) { return .failureRejectedByServer }
        if findings.contains(where: \.failsOnAndroid) { return .failureUnknown }
        let linked = fingerprints.contains { statements.links(.handleAllURLs, toApp: app, fingerprint: $0) }
        return linked ? .success : .failureRejectedByServer
    }
}

extension AssetLinksReport {
    /// Whether the list links `app` by `relation` under at least one of the certificates asked about.
    public func links(_ relation: AssetRelation) -> Bool {
        links.contains { $0.relation == relation && $0.linked }
    }

    /// What Google's API (and its Statement List tester) says: FETCH_ERROR, then the precise
    /// codes when there are others.
    public var googleSummary: String {
        let precise = googleErrors.filter { $0 != .fetchError }.map(\.rawValue)
        let google =
            googleErrors.isEmpty ? "no error" : precise.isEmpty ? "FETCH_ERROR" : "FETCH_ERROR: " + precise.joined(separator: ", ")
        return "Google's API: \(google)"
    }

    /// The report as `kclab assetlinks check` prints it: each finding, both verdicts, the summary.
    public var lines: [String] {
        var lines = findings.map(\.description)
        if let androidVerdict { lines.append("Android (App Links, Android 12 and later): \(androidVerdict.rawValue)") }
        lines.append(googleSummary)
        lines.append("\(passed ? "passed" : "failed"): \(statements) \(statements == 1 ? "statement" : "statements") for \(source)")
        return lines
    }
}
