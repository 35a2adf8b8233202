/// What `kclab assetlinks check` says of a site's statement list: how it was served, what each
/// statement and include gave, and the questions asked of it: whether each relation links an app
/// under each of its certificates, links another site, or is given to any target. Two readers
/// judge it, and may disagree: Google's API (its error codes and answers) and Android's verifier
/// (what its parser reads, and the list's own statements and its direct includes'); `verdict`
/// says which decides ``passed``.
public struct AssetLinksReport: Sendable, Hashable, Codable {
    /// One question answered: does the site link the app under this certificate, the site, or
    /// (neither asked) any target, by this relation.
    public struct Link: Sendable, Hashable, Codable {
        public let relation: AssetRelation
        /// The app asked about and one of its certificates; nil for a site or any target.
        public let packageName: String?
        public let fingerprint: String?
        /// The site asked about (a web target); nil for an app or any target.
        public let site: String?
        /// Google's answer: a statement of the list or of any include links it.
        public let linked: Bool
        /// Android's: its verifier reads the list, and a statement of the list or of a direct
        /// include links it.
        public let androidLinked: Bool
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

    /// Which reader's verdict decides ``passed``.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        /// Android's verifier: ``androidPassed``.
        case android
        /// Google's API and hosting rules: ``googlePassed``.
        case google
        /// Both must pass.
        case both
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
    /// Google's verdict: its API reads the list without an error code and answers every question
    /// asked `linked` (no finding failed).
    public var googlePassed: Bool
    /// Android's verdict: its verifier reads the list (no redirect, a 200 answer over HTTPS of at
    /// most 1 MiB, nothing its parser throws on) and every question asked is linked among the
    /// statements it reads; asked nothing, it reads at least one statement.
    public var androidPassed: Bool
    /// The verdict asked for.
    public var verdict: Verdict

    /// Whether the verdict asked for holds.
    public var passed: Bool {
        switch verdict {
        case .android: androidPassed
        case .google: googlePassed
        case .both: googlePassed && androidPassed
        }
    }

    /// Judges `resolved`, the statements of `source`'s list with its includes followed, for
    /// `app` (its package signed by any of its certificates) or the site `site` by `relations`
    /// (by each relation alone, given to any target, when neither is asked about), `verdict`
    /// deciding.
    public init(
        source: WebAsset,
        served: [AssetLinksFinding],
        resolved: ResolvedStatements,
        app: AndroidAppAsset?,
        site: WebAsset? = nil,
        relations: [AssetRelation],
        verdict: Verdict = .both
    ) {
        self.source = source.description
        statements = resolved.statements.count
        self.verdict = verdict
        let read = served + resolved.findings
        googleErrors = read.googleErrorCodes
        let reading = AssetLinksReport.androidReading(read)
        var questions = Questions(source: source, resolved: resolved, androidReads: reading == nil)
        if let app {
            let handles = app.fingerprints.contains { resolved.androidStatements.links(.handleAllURLs, toApp: app.packageName, fingerprint: $0) }
            androidVerdict = reading ?? (handles ? .success : .failureRejectedByServer)
            questions.ask(app: app, by: relations)
        } else if let site {
            questions.ask(site: site, by: relations)
        } else {
            questions.ask(anyTargetBy: relations)
        }
        let judged = read + questions.findings
        let answered = questions.links
        findings = judged
        links = answered
        googlePassed = !judged.contains { $0.result == .fail }
        androidPassed = reading == nil && (answered.isEmpty ? !resolved.androidStatements.isEmpty : answered.allSatisfy(\.androidLinked))
    }

    /// Why Android's verifier reads no statement of the list, in the order its DomainVerifier
    /// decides: a redirect; no usable answer; a parser that threw. Nil when it reads the list;
    /// then whether a handle_all_urls statement names the app under one of its certificates
    /// decides its App Links.
    static func androidReading(_ findings: [AssetLinksFinding]) -> AndroidVerdict? {
        let failed = Set(findings.filter { $0.result == .fail }.map(\.rule))
        if failed.contains(.noRedirects) { return .failureRedirect }
        if !failed.isDisjoint(with: [.https, .reachable, .httpStatus, .sizeLimit]) { return .failureRejectedByServer }
        if findings.contains(where: \.failsOnAndroid) { return .failureUnknown }
        return nil
    }
}

extension AssetLinksReport {
    /// Whether the list links `app` by `relation` under at least one of the certificates asked about.
    public func links(_ relation: AssetRelation) -> Bool {
        links.contains { $0.relation == relation && $0.linked }
    }

    /// Whether links to the site open the app, by the verdict asked for: Android's verifier
    /// (`android`), Google's answer for handle_all_urls (`google`), or both.
    public var opensAppLinks: Bool {
        let android = androidVerdict == .success
        let google = links(.handleAllURLs)
        switch verdict {
        case .android: return android
        case .google: return google
        case .both: return android && google
        }
    }

    /// Who said whether links open the app, for a report's line.
    public var appLinksWitness: String {
        let android = "Android's verifier gives \(androidVerdict?.rawValue ?? "no verdict")"
        let google = "Google's API answers linked: \(links(.handleAllURLs)) for handle_all_urls"
        switch verdict {
        case .android: return android
        case .google: return google
        case .both: return "\(android) and \(google)"
        }
    }

    /// What Google's API (and its Statement List tester) says: FETCH_ERROR, then the precise
    /// codes when there are others.
    public var googleSummary: String {
        let precise = googleErrors.filter { $0 != .fetchError }.map(\.rawValue)
        let google =
            googleErrors.isEmpty ? "no error" : precise.isEmpty ? "FETCH_ERROR" : "FETCH_ERROR: " + precise.joined(separator: ", ")
        return "Google's API: \(google)"
    }

    /// The report as `kclab assetlinks check` prints it: each finding, both verdicts (and which
    /// decides, when they differ), the summary.
    public var lines: [String] {
        var lines = findings.map(\.description)
        if let androidVerdict { lines.append("Android (App Links, Android 12 and later): \(androidVerdict.rawValue)") }
        lines.append(googleSummary)
        if googlePassed != androidPassed {
            let google = googlePassed ? "passes" : "fails"
            let android = androidPassed ? "passes" : "fails"
            lines.append("Google's API \(google) and Android's verifier \(android): the verdict asked, \(verdict.rawValue), decides")
        }
        lines.append("\(passed ? "passed" : "failed"): \(statements) \(statements == 1 ? "statement" : "statements") for \(source)")
        return lines
    }
}
