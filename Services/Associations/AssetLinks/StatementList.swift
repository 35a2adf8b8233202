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
            // Google's API answers a query of an empty list with FETCH_ERROR (compatibility test
            // 2002), so a site serving [] links nothing and says so as loudly as a 404; an empty
            // included file only adds nothing to its parent's statements.
            let message =
                file == nil
                ? "the list is empty: Google's API answers \"No statements were found\" (FETCH_ERROR), as for a file it cannot fetch"
                : "\(prefix)the included list is empty: it adds no statement"
            findings.append(
                AssetLinksFinding(.emptyList, file == nil ? .fail : .warn, message, at: root.position, code: file == nil ? .fetchError : nil)
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
