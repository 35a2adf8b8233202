public import Foundation

/// A source's statements with its includes followed as Google's API follows them: each included
/// file read once, the source's own list counting as read, at most ``fetchBudget`` of them (a loop
/// or a self-include ends there, FETCH_BUDGET_EXHAUSTED);
/// once the source or any include in the chain is HTTPS, every deeper include must be HTTPS too
/// (SECURE_ASSET_INCLUDES_INSECURE, compatibility tests 5006, 5007, 5009); a file that cannot be
/// read loses its own statements only. Android follows one level of include and no more, which a
/// warning says.
public struct ResolvedStatements: Sendable {
    public var statements: [AssetStatement]
    public var findings: [AssetLinksFinding]
    /// The statements Android's verifier reads: the list's own and those of its direct includes.
    public var androidStatements: [AssetStatement]

    /// The most included files read for one source. Google does not publish its budget; ten is
    /// more than any real file needs and bounds a hostile one.
    public static let fetchBudget = 10

    public init(statements: [AssetStatement], findings: [AssetLinksFinding]) {
        self.statements = statements
        self.findings = findings
        androidStatements = statements
    }

    /// What reading an included file gave.
    public enum Load: Sendable {
        case data(Data)
        /// It could not be fetched: why, and Google's code for it.
        case failed(String, AssetLinksErrorCode)
        /// It was not looked for (a local check given no copy of it).
        case unavailable(String)
    }

    /// Follows `list`'s includes for `source` (nil for an app's own list, which counts as
    /// secure), reading each with `load`.
    public static func resolve(_ list: StatementList, source: WebAsset?, load: (IncludeURL) async -> Load) async -> ResolvedStatements {
        var resolved = ResolvedStatements(statements: list.statements, findings: list.findings)
        var pending = list.includes.map { (include: $0, secure: source?.isSecure ?? true, depth: 1) }
        // The source's own list counts as read: a file that includes itself is a loop at once,
        // not a second reading that would list each of its statements twice.
        let own = source.map { $0.statementListURL.lowercased() }
        var seen: Set<String> = own.map { [$0] } ?? []
        var repeated: Set<String> = []
        var read = 0
        // An index, not removeFirst: a file of many includes costs linear time.
        var next = 0
        while next < pending.count {
            let (include, secureChain, depth) = pending[next]
            next += 1
            guard let url = try? IncludeURL(include.url) else { continue }
            let name = url.description.lowercased()
            guard seen.insert(name).inserted else {
                if repeated.insert(name).inserted {
                    let loop =
                        name == own
                        ? "\(url) is the list itself (a self-include): Android's verifier reads it once more and keeps its statements"
                        : "\(url) is included again (a loop)"
                    resolved.fail(.fetchBudget, "Fetch budget exhausted: \(loop)", at: include, code: .fetchBudgetExhausted)
                }
                continue
            }
            guard read < fetchBudget else {
                resolved.fail(
                    .fetchBudget,
                    "Fetch budget exhausted: more than \(fetchBudget) included files, \(url) is not read",
                    at: include,
                    code: .fetchBudgetExhausted
                )
                break
            }
            if secureChain, !url.site.isSecure {
                resolved.fail(
                    .includeInsecure,
                    "Insecure URL in fetch stack of secure asset: \(url) is included once the chain is https, and must be https too",
                    at: include,
                    code: .secureAssetIncludesInsecure
                )
                continue
            }
            if depth > 1 {
                resolved.findings.append(
                    AssetLinksFinding(
                        .includeDepth,
                        .warn,
                        "\(url) is included by an included file: Android follows one level of include, so its statements count for Google's API only",
                        at: include.position
                    )
                )
            }
            read += 1
            switch await load(url) {
            case .unavailable(let why):
                resolved.findings.append(AssetLinksFinding(.includeRead, .warn, "\(url) was not read: \(why)", at: include.position))
            case .failed(let why, let code):
                resolved.fail(.includeRead, "\(url) could not be fetched: \(why); its statements are lost", at: include, code: code)
            case .data(let data):
                let included = StatementList.read(data, file: url.description)
                resolved.statements += included.statements
                if depth == 1 { resolved.androidStatements += included.statements }
                resolved.findings += included.findings
                pending += included.includes.map { ($0, secureChain || url.site.isSecure, depth + 1) }
            }
        }
        return resolved
    }

    private mutating func fail(_ rule: AssetLinksFinding.Rule, _ message: String, at include: AssetInclude, code: AssetLinksErrorCode) {
        let prefix = include.file.map { "\($0): " } ?? ""
        // An http include makes Android's HTTPS-only fetcher throw: the whole host fails.
        findings.append(AssetLinksFinding(rule, .fail, prefix + message, at: include.position, code: code, failsOnAndroid: rule == .includeInsecure))
    }
}
