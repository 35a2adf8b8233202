/// A relation string, `kind/detail`: the kind lower-case letters, digits and `_`, the detail
/// those and `.`, nothing around them and no wildcard (Google's statement-list syntax and its
/// compatibility tests, `1100-list-relation.pb`, `2100-relations.pb`).
public struct AssetRelation: Sendable, Hashable, Codable, CustomStringConvertible {
    public let kind: String
    public let detail: String

    /// App Links: the site lets the app open its URLs (`delegate_permission/common.handle_all_urls`).
    public static let handleAllURLs = AssetRelation(kind: "delegate_permission", detail: "common.handle_all_urls")
    /// Credential sharing: the app and the site share saved sign-ins (`…/common.get_login_creds`).
    public static let getLoginCreds = AssetRelation(kind: "delegate_permission", detail: "common.get_login_creds")

    private init(kind: String, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Reads `text`, or says which part breaks the grammar.
    public init(_ text: String) throws(AssetLinksProblem) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AssetLinksProblem(.relationSyntax, "'\(text)' is not a relation string: write kind/detail, such as \(Self.handleAllURLs)")
        }
        let kind = String(parts[0])
        let detail = String(parts[1])
        guard !kind.isEmpty, kind.utf8.allSatisfy({ Self.isLower($0) || $0 == UInt8(ascii: "_") }) else {
            throw AssetLinksProblem(.relationKind, "'\(text)': the kind '\(kind)' must be lower-case letters, digits and _")
        }
        guard !detail.isEmpty, detail.utf8.allSatisfy({ Self.isLower($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }) else {
            throw AssetLinksProblem(.relationDetail, "'\(text)': the detail '\(detail)' must be lower-case letters, digits, _ and . (no wildcard)")
        }
        self.init(kind: kind, detail: detail)
    }

    private static func isLower(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether it is one of the two Google defines.
    public var isPredefined: Bool { self == Self.handleAllURLs || self == Self.getLoginCreds }

    public var description: String { "\(kind)/\(detail)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
