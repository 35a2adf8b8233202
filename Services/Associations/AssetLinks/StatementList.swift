public import Foundation
public import PositionedJSON

/// One statement: the relations a file's site declares towards a target.
public struct AssetStatement: Sendable, Hashable {
    public let relations: [AssetRelation]
    public let target: Asset
    /// Where it starts in its file, and which file (nil: the one given first).
    public let position: TextPosition
    public let file: String?
}

/// An include: another statement list whose statements count as this file's.
public struct AssetInclude: Sendable, Hashable {
    public let url: String
    public let position: TextPosition
    public let file: String?
}

/// A statement list (`/.well-known/assetlinks.json`) as Google's API reads one: a JSON array of
/// statements and includes; a statement that breaks a rule is skipped and the rest kept, each
/// problem a finding with its line, column and Google's error code. Android's verifier (Android
/// 12's StatementService) is stricter: any problem but a missing target or relation fails the
/// whole host, which a finding of its own says. Reading is linear in the file's size.
public struct StatementList: Sendable, Hashable {
    public var statements: [AssetStatement] = []
    public var includes: [AssetInclude] = []
    public var findings: [AssetLinksFinding] = []

    /// Android's limit, 1 MiB (StatementService's `UrlFetcher`); Google's API publishes none.
    public static let maximumSize = 1 << 20

    /// Whether a finding failed.
    public var failed: Bool { findings.contains { $0.result == .fail } }

    public init() {}

    /// Reads `data`, the file named `file` (for findings about an include's file).
    public static func read(_ data: Data, file: String? = nil) -> StatementList {
        var list = StatementList()
        list.read(data, file: file)
        return list
    }

    private mutating func read(_ data: Data, file: String?) {
        let prefix = file.map { "\($0): " } ?? ""
        guard data.count <= Self.maximumSize else {
            findings.append(
                AssetLinksFinding(.sizeLimit, .fail, "\(prefix)\(data.count) bytes is more than Android reads (1 MiB)", code: .tooLarge)
            )
            return
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            findings.append(
                AssetLinksFinding(
                    .encoding,
                    .fail,
                    "\(prefix)the file starts with a UTF-8 byte order mark, which is not JSON",
                    code: .malformedContent,
                    failsOnAndroid: true
                )
            )
            return
        }
        let root: Positioned
        do {
            root = try PositionedJSONParser.parse(data)
        } catch {
            findings.append(
                AssetLinksFinding(
                    .jsonSyntax,
                    .fail,
                    "\(prefix)not valid JSON: \(error.message)",
                    at: error.position,
                    code: .malformedContent,
                    failsOnAndroid: true
                )
            )
            return
        }
        guard case .array(let elements) = root.node else {
            findings.append(
                AssetLinksFinding(
                    .rootArray,
                    .fail,
                    "\(prefix)the file is \(root.node.typeName), not a statement list: expected a single array of statements",
                    at: root.position,
                    code: .malformedContent,
                    failsOnAndroid: true
                )
            )
            return
        }
        if elements.isEmpty {
            findings.append(
                AssetLinksFinding(
                    .emptyList,
                    .warn,
                    "\(prefix)the list is empty: Google's API answers \"No statements were found\" (FETCH_ERROR), as for a file it cannot fetch",
                    at: root.position
                )
            )
        }
        var reader = StatementReader(file: file)
        for element in elements { reader.read(element) }
        statements += reader.statements
        includes += reader.includes
        findings += reader.findings
        if !reader.findings.contains(where: { $0.result == .fail }) {
            let count =
                "\(reader.statements.count) \(reader.statements.count == 1 ? "statement" : "statements"), \(reader.includes.count) \(reader.includes.count == 1 ? "include" : "includes")"
            findings.append(AssetLinksFinding(.jsonSyntax, .pass, "\(prefix)a valid statement list: \(count)"))
        }
    }
}

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
            skip(.statementTarget, "a statement has no target", at: element.position)
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
                throw Located(rule: .fingerprints, message: "an android_app target has no sha256_cert_fingerprints field", position: value.position)
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
