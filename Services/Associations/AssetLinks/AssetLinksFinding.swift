import Foundation
public import PositionedJSON

/// The error codes of Google's Digital Asset Links API and its compatibility tests
/// (github.com/google/digitalassetlinks, `compatibility-tests/v1/messages.proto`).
public enum AssetLinksErrorCode: String, Sendable, Hashable, Codable, CaseIterable {
    case invalidQuery = "INVALID_QUERY"
    case fetchError = "FETCH_ERROR"
    case failedSSLValidation = "FAILED_SSL_VALIDATION"
    case redirect = "REDIRECT"
    case tooLarge = "TOO_LARGE"
    case malformedHTTPResponse = "MALFORMED_HTTP_RESPONSE"
    case wrongContentType = "WRONG_CONTENT_TYPE"
    case malformedContent = "MALFORMED_CONTENT"
    case secureAssetIncludesInsecure = "SECURE_ASSET_INCLUDES_INSECURE"
    case fetchBudgetExhausted = "FETCH_BUDGET_EXHAUSTED"
}

/// One rule applied to an asset-links file, and what came of it: the unit of every verdict
/// `kclab assetlinks check` gives.
public struct AssetLinksFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Result: String, Sendable, Hashable, Codable {
        case pass, warn, fail
        /// The rule could not apply: a local file was judged, so nothing about its transport.
        case notApplicable = "n/a"
    }

    /// Every rule, named as `kclab assetlinks check` prints it.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        // The file as a whole.
        case sizeLimit = "size-limit"
        case encoding
        case jsonSyntax = "json-syntax"
        case rootArray = "root-array"
        case emptyList = "empty-list"
        case elementObject = "element-object"
        // A statement.
        case statementTarget = "statement-target"
        case statementRelation = "statement-relation"
        case relationSyntax = "relation-syntax"
        case relationKind = "relation-kind"
        case relationDetail = "relation-detail"
        case relationRepeated = "relation-repeated"
        case targetNamespace = "target-namespace"
        case webSite = "web-site"
        case webDefaultPort = "web-default-port"
        case packageName = "package-name"
        case fingerprints
        case fingerprintFormat = "fingerprint-format"
        case fingerprintRepeated = "fingerprint-repeated"
        // What Android's verifier (StatementService) refuses where Google's API skips one statement.
        case androidStrict = "android-strict"
        // Includes.
        case includeFields = "include-fields"
        case includeURL = "include-url"
        case includeInsecure = "include-insecure"
        case includeDepth = "include-depth"
        case fetchBudget = "fetch-budget"
        case includeRead = "include-read"
        // How the file was fetched.
        case https
        case httpStatus = "http-status"
        case noRedirects = "no-redirects"
        case contentType = "content-type"
        case reachable
        // What the statements say of the app or site asked about.
        case linked
        // A request to Google's API that names no source, target or relation.
        case query

        public var description: String { rawValue }
    }

    public let rule: Rule
    public let result: Result
    /// What was found, with the line and column in the file when there is one.
    public let detail: String
    /// Where in the file, when the finding is about one place.
    public let position: TextPosition?
    /// The error code Google's API gives for it, when it gives one.
    public let code: AssetLinksErrorCode?
    /// Whether Android's verifier (Android 12 and later) fails the whole host for it, where
    /// Google's API skips one statement (its parser throws: VerifyStatus FAILURE_UNKNOWN).
    public let failsOnAndroid: Bool

    public init(
        _ rule: Rule,
        _ result: Result,
        _ detail: String,
        at position: TextPosition? = nil,
        code: AssetLinksErrorCode? = nil,
        failsOnAndroid: Bool = false
    ) {
        self.rule = rule
        self.result = result
        self.detail = detail
        self.position = position
        self.code = code
        self.failsOnAndroid = failsOnAndroid
    }

    public var description: String {
        let place = position.map { " (\($0))" } ?? ""
        let coded = code.map { " [\($0.rawValue)]" } ?? ""
        return "\(result.rawValue.uppercased().padding(toLength: 4, withPad: " ", startingAt: 0)) \(rule): \(detail)\(place)\(coded)"
    }

    enum CodingKeys: String, CodingKey { case rule, result, detail, line, column, code, failsOnAndroid }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(result, forKey: .result)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(position?.line, forKey: .line)
        try container.encodeIfPresent(position?.column, forKey: .column)
        try container.encodeIfPresent(code, forKey: .code)
        if failsOnAndroid { try container.encode(true, forKey: .failsOnAndroid) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rule = try container.decode(Rule.self, forKey: .rule)
        result = try container.decode(Result.self, forKey: .result)
        detail = try container.decode(String.self, forKey: .detail)
        let line = try container.decodeIfPresent(Int.self, forKey: .line)
        let column = try container.decodeIfPresent(Int.self, forKey: .column)
        position = line.flatMap { line in column.map { TextPosition(line: line, column: $0) } }
        code = try container.decodeIfPresent(AssetLinksErrorCode.self, forKey: .code)
        failsOnAndroid = try container.decodeIfPresent(Bool.self, forKey: .failsOnAndroid) ?? false
    }
}

extension [AssetLinksFinding] {
    /// The error codes Google's API gives for the failed findings, each once, in the order met.
    public var googleErrorCodes: [AssetLinksErrorCode] {
        var codes: [AssetLinksErrorCode] = []
        for code in filter({ $0.result == .fail }).compactMap(\.code) where !codes.contains(code) { codes.append(code) }
        return codes
    }
}

/// Why one value of an asset-links file (or a query) is not what the format allows.
public struct AssetLinksProblem: Error, Sendable, Hashable {
    public let rule: AssetLinksFinding.Rule
    public let message: String
    /// Whether Android's verifier reads the value all the same (a site's final `/` or fragment,
    /// which its WebAsset accepts), where Google's API refuses it.
    public let androidReads: Bool

    public init(_ rule: AssetLinksFinding.Rule, _ message: String, androidReads: Bool = false) {
        self.rule = rule
        self.message = message
        self.androidReads = androidReads
    }
}
