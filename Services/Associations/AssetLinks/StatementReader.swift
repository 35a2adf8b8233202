import PositionedJSON

/// Reads the elements of a statement list one by one: each statement or include kept, or skipped
/// with a finding saying why.
struct StatementReader {
    let file: String?
    var statements: [AssetStatement] = []
    var includes: [AssetInclude] = []
    var findings: [AssetLinksFinding] = []

    init(file: String?) {
        self.file = file
    }

    private var prefix: String { file.map { "\($0): " } ?? "" }

    mutating func read(_ element: Positioned) {
        guard case .object(let members) = element.node else {
            skip(.elementObject, "an element is \(element.node.typeName), not a statement object", at: element.position, strictOnAndroid: true)
            return
        }
        androidStrictness(members, at: element.position)
        if let include = element["include"] {
            readInclude(include, element)
            return
        }
        guard let target = element["target"] else {
            skip(.statementTarget, "a statement has no target specified", at: element.position)
            return
        }
        guard let relation = element["relation"] else {
            skip(.statementRelation, "a statement has no relation array", at: element.position)
            return
        }
        do {
            let relations = try readRelations(relation)
            let asset = try readTarget(target)
            statements.append(AssetStatement(relations: relations, target: asset, position: element.position, file: file))
        } catch {
            skip(error.rule, error.message, at: error.position, strictOnAndroid: !error.androidReads)
        }
    }

    /// A problem with where it is.
    struct Located: Error {
        let rule: AssetLinksFinding.Rule
        let message: String
        let position: TextPosition
        var androidReads = false
    }

    private mutating func readInclude(_ include: Positioned, _ element: Positioned) {
        if element["target"] != nil || element["relation"] != nil {
            skip(.includeFields, "an include cannot also carry target or relation (an invalid field)", at: element.position)
            return
        }
        guard case .string(let url) = include.node else {
            skip(.includeURL, "include is \(include.node.typeName), not a URL", at: include.position)
            return
        }
        do {
            _ = try IncludeURL(url)
            includes.append(AssetInclude(url: url, position: include.position, file: file))
        } catch {
            skip(error.rule, error.message, at: include.position)
        }
    }

    private mutating func readRelations(_ value: Positioned) throws(Located) -> [AssetRelation] {
        guard case .array(let items) = value.node else {
            throw Located(rule: .statementRelation, message: "relation is \(value.node.typeName), not an array", position: value.position)
        }
        var relations: [AssetRelation] = []
        var seen: Set<String> = []
        for item in items {
            guard case .string(let text) = item.node else {
                throw Located(rule: .relationSyntax, message: "an invalid relation: \(item.node.typeName), not a string", position: item.position)
            }
            do {
                relations.append(try AssetRelation(text))
            } catch {
                throw Located(rule: error.rule, message: error.message, position: item.position)
            }
            if !seen.insert(text).inserted {
                findings.append(AssetLinksFinding(.relationRepeated, .warn, "\(prefix)'\(text)' is listed twice", at: item.position))
            }
        }
        return relations
    }

    private mutating func readTarget(_ value: Positioned) throws(Located) -> Asset {
        guard case .object = value.node else {
            throw Located(rule: .statementTarget, message: "target is \(value.node.typeName), not an object", position: value.position)
        }
        guard case .string(let namespace)? = value["namespace"]?.node else {
            throw Located(rule: .targetNamespace, message: "the target has no namespace (web or android_app)", position: value.position)
        }
        switch namespace {
        case "web":
            guard let site = value["site"], case .string(let text) = site.node, !text.isEmpty else {
                throw Located(rule: .webSite, message: "a web target has no site field", position: value.position)
            }
            do {
                let asset = try WebAsset(site: text)
                if asset.namesDefaultPort {
                    findings.append(
                        AssetLinksFinding(.webDefaultPort, .warn, "\(prefix)'\(text)' names the default port: leave it out", at: site.position)
                    )
                }
                return .web(asset)
            } catch {
                throw Located(rule: error.rule, message: error.message, position: site.position, androidReads: error.androidReads)
            }
        case "android_app":
            guard let package = value["package_name"], case .string(let name) = package.node else {
                throw Located(rule: .packageName, message: "an android_app target has no package_name field", position: value.position)
            }
            guard let list = value["sha256_cert_fingerprints"] else {
                throw Located(
                    rule: .fingerprints,
                    message: "no sha256_cert_fingerprints field in android app asset descriptor: the target names no certificate",
                    position: value.position
                )
            }
            guard case .array(let items) = list.node else {
                throw Located(
                    rule: .fingerprints,
                    message: "sha256_cert_fingerprints is \(list.node.typeName), not an array",
                    position: list.position
                )
            }
            var fingerprints: [String] = []
            var seen: Set<String> = []
            for item in items {
                guard case .string(let text) = item.node else {
                    throw Located(
                        rule: .fingerprints,
                        message: "a sha256_cert_fingerprints entry is \(item.node.typeName), not a string",
                        position: item.position
                    )
                }
                do {
                    try AndroidAppAsset.checkFingerprint(text)
                } catch {
                    throw Located(rule: error.rule, message: error.message, position: item.position, androidReads: error.androidReads)
                }
                if !seen.insert(text).inserted {
                    findings.append(
                        AssetLinksFinding(.fingerprintRepeated, .warn, "\(prefix)the fingerprint \(text) is listed twice", at: item.position)
                    )
                }
                fingerprints.append(text)
            }
            do {
                return .androidApp(try AndroidAppAsset(packageName: name, fingerprints: fingerprints))
            } catch {
                throw Located(rule: error.rule, message: error.message, position: error.rule == .packageName ? package.position : list.position)
            }
        default:
            throw Located(
                rule: .targetNamespace,
                message: "'\(namespace)' is an unrecognized namespace: web or android_app",
                position: value["namespace"]?.position ?? value.position
            )
        }
    }

    /// What Android's verifier alone refuses in an element it would otherwise read: a number,
    /// Boolean or null anywhere in it, or a key given twice (its JsonParser throws, and the
    /// whole host fails).
    private mutating func androidStrictness(_ members: [(key: String, value: Positioned)], at position: TextPosition) {
        var keys: Set<String> = []
        for (key, _) in members where !keys.insert(key).inserted {
            findings.append(
                AssetLinksFinding(
                    .androidStrict,
                    .warn,
                    "\(prefix)the key '\(key)' is given twice: Android's verifier then fails the whole host",
                    at: position,
                    failsOnAndroid: true
                )
            )
            break
        }
        var pending = members.map(\.value)
        while let value = pending.popLast() {
            switch value.node {
            case .number, .bool, .null:
                findings.append(
                    AssetLinksFinding(
                        .androidStrict,
                        .warn,
                        "\(prefix)\(value.node.typeName) in a statement: Android's verifier reads only text, objects and lists of text, and fails the whole host",
                        at: value.position,
                        failsOnAndroid: true
                    )
                )
                return
            case .object(let inner): pending += inner.map(\.value)
            case .array(let inner): pending += inner
            case .string: break
            }
        }
    }

    /// Skips an element, with Google's code; `strictOnAndroid` adds that Android's verifier fails
    /// the whole host for it (it skips only a statement without a target or a relation).
    private mutating func skip(_ rule: AssetLinksFinding.Rule, _ message: String, at position: TextPosition, strictOnAndroid: Bool = false) {
        let android = strictOnAndroid ? "; Android's verifier fails the whole host for it" : ""
        findings.append(
            AssetLinksFinding(
                rule,
                .fail,
                "\(prefix)\(message): the statement is skipped\(android)",
                at: position,
                code: .malformedContent,
                failsOnAndroid: strictOnAndroid
            )
        )
    }
}
