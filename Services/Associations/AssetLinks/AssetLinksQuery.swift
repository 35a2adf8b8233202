/// A request to Google's Digital Asset Links API v1, read from its fields as the API reads them
/// (compatibility tests 1000 to 1400): `statements.list`, a source and a relation, an empty or
/// missing one meaning every relation; or `assetlinks.check`, a source, a relation that must be
/// given and a target, a site or an app under one certificate. A request the API cannot read is
/// refused before anything is fetched: INVALID_QUERY (the suite's QUERY_PARSING_ERROR), with
/// the API's message first in the problem's.
public enum AssetLinksQuery: Sendable, Hashable {
    /// `statements.list`: the source's statements by `relation`, every one when nil.
    case list(source: Asset, relation: AssetRelation?)
    /// `assetlinks.check`: whether the source links `target` by `relation`.
    case check(source: Asset, relation: AssetRelation, target: Asset)

    /// An asset as a request gives it, before the API reads it: a `web` query (its `site`), an
    /// `androidApp` query (its `packageName` and `certificate.sha256Fingerprint`), or an asset
    /// query that is neither (`{}`).
    public enum Fields: Sendable, Hashable {
        case unspecified
        case web(site: String?)
        case androidApp(packageName: String?, fingerprint: String?)
    }

    /// A list request: `relation` empty or nil lists every relation.
    public static func parse(source: Fields?, relation: String?) throws(AssetLinksProblem) -> AssetLinksQuery {
        let from = try asset(source, role: "source")
        guard let relation, !relation.isEmpty else { return .list(source: from, relation: nil) }
        return .list(source: from, relation: try Self.relation(relation))
    }

    /// A check request: every field is required.
    public static func parse(source: Fields?, relation: String?, target: Fields?) throws(AssetLinksProblem) -> AssetLinksQuery {
        let from = try asset(source, role: "source")
        let granted = try checkRelation(relation)
        return .check(source: from, relation: granted, target: try asset(target, role: "target"))
    }

    /// A check request's relation, which must be given (a list's may be left out).
    public static func checkRelation(_ text: String?) throws(AssetLinksProblem) -> AssetRelation {
        guard let text, !text.isEmpty else {
            throw AssetLinksProblem(
                .query,
                "Request must contain a relation string: a check asks about one relation, such as \(AssetRelation.handleAllURLs)"
            )
        }
        return try relation(text)
    }

    /// A relation query, refused in the API's words: an invalid relation string, or an invalid
    /// `kind` or `detail` field in it (a wildcard is one).
    public static func relation(_ text: String) throws(AssetLinksProblem) -> AssetRelation {
        do {
            return try AssetRelation(text)
        } catch {
            let field =
                switch error.rule {
                case .relationKind: "Invalid 'kind' field in relation string"
                case .relationDetail: "Invalid 'detail' field in relation string"
                default: "Invalid relation string"
                }
            throw AssetLinksProblem(error.rule, "\(field): \(error.message)")
        }
    }

    /// An asset query, as the request's `role` ("source" or "target").
    public static func asset(_ fields: Fields?, role: String) throws(AssetLinksProblem) -> Asset {
        guard let fields else { throw AssetLinksProblem(.query, "Request must contain a \(role) asset query") }
        switch fields {
        case .unspecified:
            throw AssetLinksProblem(.targetNamespace, "Must specify one of the asset types: the \(role) is neither web nor androidApp")
        case .web(let site):
            return .web(try Self.site(site))
        case .androidApp(let packageName, let fingerprint):
            return .androidApp(try app(packageName, fingerprint))
        }
    }

    /// A `web` query's site: `http[s]://host[:port]`, nothing after it.
    public static func site(_ text: String?) throws(AssetLinksProblem) -> WebAsset {
        guard let text, !text.isEmpty else { throw AssetLinksProblem(.webSite, "No site field: a web asset query names its site") }
        do {
            return try WebAsset(site: text)
        } catch {
            throw AssetLinksProblem(.webSite, "Invalid site: \(error.message)")
        }
    }

    /// An `androidApp` query: a package name and one certificate's SHA-256.
    public static func app(_ packageName: String?, _ fingerprint: String?) throws(AssetLinksProblem) -> AndroidAppAsset {
        guard let packageName, !packageName.isEmpty else {
            throw AssetLinksProblem(.packageName, "No package_name field: an androidApp asset query names its package")
        }
        do {
            try AndroidAppAsset.checkPackageName(packageName)
        } catch {
            throw AssetLinksProblem(.packageName, "Invalid package_name field: \(error.message)")
        }
        guard let fingerprint else {
            throw AssetLinksProblem(.fingerprintFormat, "Invalid sha256_fingerprint field: the query gives no certificate")
        }
        do {
            return try AndroidAppAsset(packageName: packageName, fingerprints: [fingerprint])
        } catch {
            throw AssetLinksProblem(.fingerprintFormat, "Invalid sha256_fingerprint field: \(error.message)")
        }
    }

    /// The asset whose statements are read.
    public var source: Asset {
        switch self {
        case .list(let source, _), .check(let source, _, _): source
        }
    }
}
