/// The two questions Google's API answers about a source's statements (`statements.list`,
/// `assetlinks.check`), asked of statements already read.
extension Array where Element == AssetStatement {
    /// Each (relation, target) pair, one per relation and per fingerprint of an app target,
    /// whose relation is `relation` (every relation when nil: the list query's wildcard).
    public func list(relation: AssetRelation?) -> [(relation: AssetRelation, target: Asset)] {
        var pairs: [(relation: AssetRelation, target: Asset)] = []
        for statement in self {
            for granted in statement.relations where relation == nil || granted == relation {
                pairs.append((granted, statement.target))
            }
        }
        return pairs
    }

    /// Whether a statement links to the site `site` by `relation` (sites compared as Google
    /// normalises them).
    public func links(_ relation: AssetRelation, to site: WebAsset) -> Bool {
        contains { statement in
            guard case .web(let target) = statement.target else { return false }
            return target == site && statement.relations.contains(relation)
        }
    }

    /// Whether a statement links to the app `packageName` signed by the certificate whose
    /// SHA-256 is `fingerprint` by `relation`: fingerprints compared as text, as Android does.
    public func links(_ relation: AssetRelation, toApp packageName: String, fingerprint: String) -> Bool {
        contains { statement in
            guard case .androidApp(let app) = statement.target else { return false }
            return app.packageName == packageName && app.fingerprints.contains(fingerprint) && statement.relations.contains(relation)
        }
    }

    /// The fingerprints the statements give `packageName` for `relation`, for a message that
    /// shows what the file lists when the asked one is not there.
    public func fingerprints(of packageName: String, for relation: AssetRelation) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        for statement in self where statement.relations.contains(relation) {
            guard case .androidApp(let app) = statement.target, app.packageName == packageName else { continue }
            for fingerprint in app.fingerprints where seen.insert(fingerprint).inserted { found.append(fingerprint) }
        }
        return found
    }
}
