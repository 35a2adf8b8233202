/// Google's answer to one query, in the API's response shape (`ListResponse`: `statements`;
/// `CheckResponse`: `linked`; both `errorCode` and `debugString`) with the outcome Google's
/// compatibility suite expects of it: SUCCESS, QUERY_PARSING_ERROR (the request was refused,
/// INVALID_QUERY) or FETCH_ERROR (an error code was met reading the source's statements, which
/// does not stop the good ones from answering: a check may be linked with FETCH_ERROR).
public struct AssetLinksAnswer: Sendable, Hashable, Encodable {
    /// The compatibility suite's `QueryOutcome`.
    public enum Outcome: String, Sendable, Hashable, Encodable, CaseIterable {
        case success = "SUCCESS"
        case queryParsingError = "QUERY_PARSING_ERROR"
        case fetchError = "FETCH_ERROR"
    }

    public let outcome: Outcome
    /// A list's statements; nil for a check.
    public let statements: [StatementListing.Statement]?
    /// A check's answer; nil for a list.
    public let linked: Bool?
    /// The codes the API gives, in the order met.
    public let errorCode: [AssetLinksErrorCode]
    /// One line per error, the API's words first, then what found nothing.
    public let debugString: String
    /// What found nothing, in the API's words ("No statements were found…"); nil when the
    /// query found what it asked for. Not part of the API's JSON.
    public let notFound: String?

    enum CodingKeys: String, CodingKey { case outcome, statements, linked, errorCode, debugString }

    /// Whether the query found what it asked for: the check is linked, or the list holds a
    /// statement. A query that finds nothing is a failure for `kclab assetlinks`.
    public var found: Bool { notFound == nil }

    /// A request the API refuses before fetching anything.
    public init(refused problem: AssetLinksProblem) {
        outcome = .queryParsingError
        statements = nil
        linked = nil
        errorCode = [.invalidQuery]
        debugString = problem.message
        notFound = "The query was refused"
    }

    init(statements: [StatementListing.Statement]?, linked: Bool?, findings: [AssetLinksFinding], notFound: String?) {
        self.statements = statements
        self.linked = linked
        self.notFound = notFound
        let codes = findings.googleErrorCodes
        errorCode = codes
        outcome = codes.isEmpty ? .success : .fetchError
        var lines = findings.filter { $0.result == .fail && $0.code != nil }.map { "\(AssetLinksAnswer.phrase($0.rule)): \($0.detail)" }
        // An empty list has said it already.
        if let notFound, !findings.contains(where: { $0.rule == .emptyList && $0.result == .fail }) { lines.append(notFound) }
        debugString = lines.joined(separator: "\n")
    }

    /// What the API says first of a failure under `rule` (the compatibility suite matches these
    /// words), before the lab's detail.
    static func phrase(_ rule: AssetLinksFinding.Rule) -> String {
        switch rule {
        case .emptyList: "No statements were found"
        case .encoding, .jsonSyntax: "Could not parse statement list: not valid JSON"
        case .rootArray: "Could not parse statement list: not valid JSON, expected a single array"
        case .sizeLimit: "Response too large"
        case .https: "SSL validation failed"
        case .noRedirects: "Redirects are not followed"
        case .contentType: "Wrong content type"
        case .httpStatus, .reachable, .includeRead: "Fetch error"
        case .includeInsecure, .fetchBudget: "Could not follow include"
        default: "Could not parse statement list"
        }
    }
}

extension AssetLinksQuery {
    /// The API's answer from the source's statements: `served` (how its list was fetched) and
    /// `resolved` (what it and its includes hold).
    public func answer(served: [AssetLinksFinding], resolved: ResolvedStatements) -> AssetLinksAnswer {
        let findings = served + resolved.findings
        switch self {
        case .list(let source, let relation):
            let listed = StatementListing(source: source, statements: resolved.statements, relation: relation, errors: []).statements
            let which = relation.map { " with relation \($0)" } ?? ""
            return AssetLinksAnswer(
                statements: listed,
                linked: nil,
                findings: findings,
                notFound: listed.isEmpty ? "No statements were found\(which)" : nil
            )
        case .check(_, let relation, let target):
            let linked = resolved.statements.links(relation, to: target)
            let notFound = linked ? nil : "No statement links \(target.queried) by \(relation)"
            return AssetLinksAnswer(statements: nil, linked: linked, findings: findings, notFound: notFound)
        }
    }
}

extension Array where Element == AssetStatement {
    /// Whether a statement links `target` by `relation`: a site compared as Google normalises
    /// sites, an app under any of the asked certificates.
    public func links(_ relation: AssetRelation, to target: Asset) -> Bool {
        switch target {
        case .web(let site): links(relation, to: site)
        case .androidApp(let app): app.fingerprints.contains { links(relation, toApp: app.packageName, fingerprint: $0) }
        }
    }
}

extension Asset {
    /// The asset as a query names it: a site's URL, an app's package and certificates.
    var queried: String {
        switch self {
        case .web(let site): site.description
        case .androidApp(let app): "\(app.packageName) (\(app.fingerprints.joined(separator: ", ")))"
        }
    }
}
