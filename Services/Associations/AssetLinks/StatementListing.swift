/// Google's `statements.list` answer for a source and a relation: each statement as the API
/// gives it (one per relation, and per certificate of an app target), with the error codes met
/// while reading the list (`ListResponse` in the API's reference:
/// developers.google.com/digital-asset-links/reference/rest/v1/statements/list).
public struct StatementListing: Sendable, Hashable, Encodable {
    /// One statement: the source, one relation, one target.
    public struct Statement: Sendable, Hashable, Encodable {
        public let relation: AssetRelation
        public let target: Asset
        let source: Asset

        enum CodingKeys: String, CodingKey { case source, relation, target }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(APIAsset(source), forKey: .source)
            try container.encode(relation.description, forKey: .relation)
            try container.encode(APIAsset(target), forKey: .target)
        }

        /// One line: the relation, then the target.
        public var line: String {
            switch target {
            case .web(let site): "\(relation)  web \(site)"
            case .androidApp(let app): "\(relation)  android_app \(app.packageName) \(app.fingerprints.first ?? "")"
            }
        }
    }

    /// An asset in the API's JSON: `{"web": {"site": …}}` or `{"androidApp": {"packageName": …,
    /// "certificate": {"sha256Fingerprint": …}}}`, an app under its first certificate.
    private struct APIAsset: Encodable {
        let asset: Asset

        init(_ asset: Asset) {
            self.asset = asset
        }

        private struct AndroidApp: Encodable {
            let packageName: String
            let certificate: [String: String]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch asset {
            case .web(let site):
                try container.encode(["web": ["site": site.description]])
            case .androidApp(let app):
                let certificate = ["sha256Fingerprint": app.fingerprints.first ?? ""]
                try container.encode(["androidApp": AndroidApp(packageName: app.packageName, certificate: certificate)])
            }
        }
    }

    public let statements: [Statement]
    /// The codes Google's API gives in `errorCode`, in the order met.
    public let errorCode: [AssetLinksErrorCode]

    /// The statements of the site `source` whose relation is `relation` (every one when nil), an
    /// app target split per certificate as the API splits it.
    public init(source: WebAsset, statements: [AssetStatement], relation: AssetRelation?, errors: [AssetLinksErrorCode]) {
        self.init(source: .web(source), statements: statements, relation: relation, errors: errors)
    }

    /// The statements of `source`, a site or an app (whose own list the API reads from its APK).
    public init(source: Asset, statements: [AssetStatement], relation: AssetRelation?, errors: [AssetLinksErrorCode]) {
        var listed: [Statement] = []
        for (granted, target) in statements.list(relation: relation) {
            guard case .androidApp(let app) = target, app.fingerprints.count > 1 else {
                listed.append(Statement(relation: granted, target: target, source: source))
                continue
            }
            for fingerprint in app.fingerprints {
                // Each fingerprint was checked when the statement was read.
                guard let single = try? AndroidAppAsset(packageName: app.packageName, fingerprints: [fingerprint]) else { continue }
                listed.append(Statement(relation: granted, target: .androidApp(single), source: source))
            }
        }
        self.statements = listed
        errorCode = errors
    }
}
