extension AssetLinksReport {
    /// The questions `kclab assetlinks check` asks of a list, each answered twice (Google's API
    /// reads every include, Android's verifier the list's own statements and its direct
    /// includes', and only when its parser reads the list) with a `linked` finding that says why
    /// when Google's answer is no.
    struct Questions {
        let source: WebAsset
        let resolved: ResolvedStatements
        /// Whether Android's verifier reads the list at all.
        let androidReads: Bool
        var links: [Link] = []
        var findings: [AssetLinksFinding] = []

        init(source: WebAsset, resolved: ResolvedStatements, androidReads: Bool) {
            self.source = source
            self.resolved = resolved
            self.androidReads = androidReads
        }

        /// Whether the app is linked by each relation under each of its certificates.
        mutating func ask(app: AndroidAppAsset, by relations: [AssetRelation]) {
            let packageName = app.packageName
            for relation in relations {
                for fingerprint in app.fingerprints {
                    let linked = resolved.statements.links(relation, toApp: packageName, fingerprint: fingerprint)
                    let onAndroid = androidReads && resolved.androidStatements.links(relation, toApp: packageName, fingerprint: fingerprint)
                    let link = Link(
                        relation: relation,
                        packageName: packageName,
                        fingerprint: fingerprint,
                        site: nil,
                        linked: linked,
                        androidLinked: onAndroid
                    )
                    let asked = "\(packageName) (\(fingerprint))"
                    guard !linked else {
                        answered(link, "\(source) links \(asked) by \(relation)")
                        continue
                    }
                    let listed = resolved.statements.fingerprints(of: packageName, for: relation)
                    let why =
                        listed.isEmpty
                        ? "no statement gives \(packageName) \(relation)"
                        : "the file lists \(packageName) under \(listed.joined(separator: ", ")) only: with Play App Signing, publish the app signing key's SHA-256 (Play Console, App integrity), not the upload key's"
                    answered(link, "\(source) does not link \(asked) by \(relation): \(why)")
                }
            }
        }

        /// Whether the site `site` is linked by each relation (Google's check with a web target).
        mutating func ask(site: WebAsset, by relations: [AssetRelation]) {
            for relation in relations {
                let linked = resolved.statements.links(relation, to: site)
                let onAndroid = androidReads && resolved.androidStatements.links(relation, to: site)
                let link = Link(
                    relation: relation,
                    packageName: nil,
                    fingerprint: nil,
                    site: site.description,
                    linked: linked,
                    androidLinked: onAndroid
                )
                guard !linked else {
                    answered(link, "\(source) links \(site) by \(relation)")
                    continue
                }
                var listed: [WebAsset] = []
                for (_, target) in resolved.statements.list(relation: relation) {
                    if case .web(let other) = target, !listed.contains(other) { listed.append(other) }
                }
                let names = listed.map(\.description).joined(separator: ", ")
                let why =
                    listed.isEmpty
                    ? "no statement gives a site \(relation)"
                    : listed.contains { $0.host == site.host }
                        ? "the file gives it to \(names) only: http and https, and each port, are different sites"
                        : "the file gives it to \(names) only"
                answered(link, "\(source) does not link \(site) by \(relation): \(why)")
            }
        }

        /// Whether each relation is given to any target (`--relation` asked alone).
        mutating func ask(anyTargetBy relations: [AssetRelation]) {
            for relation in relations {
                let targets = resolved.statements.list(relation: relation).count
                let onAndroid = androidReads && !resolved.androidStatements.list(relation: relation).isEmpty
                let link = Link(relation: relation, packageName: nil, fingerprint: nil, site: nil, linked: targets > 0, androidLinked: onAndroid)
                guard targets == 0 else {
                    answered(link, "\(source) gives \(relation) to \(targets) \(targets == 1 ? "target" : "targets")")
                    continue
                }
                var given: [String] = []
                for (granted, _) in resolved.statements.list(relation: nil) where !given.contains(granted.description) {
                    given.append(granted.description)
                }
                let why = given.isEmpty ? "" : ": the file gives \(given.joined(separator: ", ")) only"
                answered(link, "no statement of \(source) gives \(relation)\(why)")
            }
        }

        /// Records `link` with its finding: a pass or a failure by Google's answer, and a warning
        /// when Android's verifier reads the list but not the statement that links it.
        private mutating func answered(_ link: Link, _ detail: String) {
            links.append(link)
            findings.append(AssetLinksFinding(.linked, link.linked ? .pass : .fail, detail))
            if link.linked, androidReads, !link.androidLinked {
                findings.append(
                    AssetLinksFinding(
                        .linked,
                        .warn,
                        "Android's verifier does not see it: the statement is in an include of an include, and it follows one level only"
                    )
                )
            }
        }
    }
}
