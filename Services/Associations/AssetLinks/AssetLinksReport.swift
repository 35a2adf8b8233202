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

    /// The site the list speaks for.
    public let source: String
    public var findings: [AssetLinksFinding]
    /// How many statements were read (includes followed).
    public var statements: Int
    public var links: [Link]

    /// Whether every rule held: no failed finding.
    public var passed: Bool { !findings.contains { $0.result == .fail } }

    /// Judges `resolved`, the statements of `source`'s list with its includes followed, for the
    /// app `packageName` signed by the certificates `fingerprints`, by `relations`.
    public init(
        source: WebAsset,
        served: [AssetLinksFinding],
        resolved: ResolvedStatements,
        app packageName: String?,
        fingerprints: [String],
        relations: [AssetRelation]
    ) {
        self.source = source.description
        findings = served + resolved.findings
        statements = resolved.statements.count
        links = []
        guard let packageName else { return }
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
}
