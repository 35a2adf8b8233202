public import Foundation

/// Universal-link matching (spec associations.md c.3–c.5): which `details` entry speaks for an app,
/// and whether its `paths` or `components` make a URL a universal link. First match wins.
extension AssociationFile {
    /// What the file says about one URL for one app.
    public struct URLMatch: Sendable, Hashable, CustomStringConvertible {
        public enum Outcome: String, Sendable, Hashable, Codable {
            /// A pattern matched: the URL opens the app.
            case matched
            /// An exclusion matched: the URL stays in the browser.
            case blocked
            /// No pattern matched, or no entry names the app.
            case noMatch = "no-match"
        }

        public let outcome: Outcome
        /// The pattern (or component) that decided, as written.
        public let pattern: String?

        public var description: String {
            switch outcome {
            case .matched: "Pattern \(pattern ?? "") matched"
            case .blocked: "Pattern \(pattern ?? "") blocked match"
            case .noMatch: pattern.map { "No pattern matched (\($0))" } ?? "No pattern matched"
            }
        }
    }

    /// Matches `url` for `appID` on a device of iOS `era` (12 and earlier read only `appID` and
    /// `paths`; 13 and later read `components` when an entry has them).
    public func match(_ url: URL, appID: String, era: Int = 17) -> URLMatch {
        guard let links = appLinks else { return URLMatch(outcome: .noMatch, pattern: "no applinks") }
        let detail = links.details.first { $0.appIDs(era: era).contains(appID) }
        guard let detail else { return URLMatch(outcome: .noMatch, pattern: "no details entry names \(appID)") }
        if era >= 13, let components = detail.components {
            let parts = URLParts(url)
            // One matcher per case mode, so the file's variables are compiled once, not per component.
            let matchers = [true, false].map { PatternMatcher(caseSensitive: $0, variables: links.substitutionVariables) }
            for component in components {
                let caseSensitive = component.caseSensitive ?? detail.defaults.caseSensitive ?? links.defaults.caseSensitive ?? true
                let encoded = component.percentEncoded ?? detail.defaults.percentEncoded ?? links.defaults.percentEncoded ?? true
                if component.matches(parts, encoded: encoded, matcher: matchers[caseSensitive ? 0 : 1]) {
                    return URLMatch(outcome: component.exclude ? .blocked : .matched, pattern: component.summary)
                }
            }
            return URLMatch(outcome: .noMatch, pattern: nil)
        }
        let path = URLParts(url).path(encoded: true)
        let matcher = PatternMatcher(caseSensitive: true, variables: [:])
        for pattern in detail.paths ?? [] {
            let excluded = pattern.hasPrefix("NOT ")
            if matcher.matches(excluded ? String(pattern.dropFirst(4)) : pattern, path) {
                return URLMatch(outcome: excluded ? .blocked : .matched, pattern: "\"\(pattern)\"")
            }
        }
        return URLMatch(outcome: .noMatch, pattern: nil)
    }
}

extension AssociationFile.Component {
    func matches(_ parts: URLParts, encoded: Bool, matcher: PatternMatcher) -> Bool {
        if let path, !matcher.matches(path, parts.path(encoded: encoded)) { return false }
        if let fragment, !matcher.matches(fragment, parts.fragment(encoded: encoded)) { return false }
        switch query {
        case .whole(let pattern)?:
            if !matcher.matches(pattern, parts.query(encoded: encoded)) { return false }
        case .items(let items)?:
            // An absent item is compared as "": `*` matches it, `?*` does not (spec c.5). A name
            // given several times must match every time ("the operating system will require that
            // all instances of a given query item name match your pattern", WWDC19 session 717).
            for (name, pattern) in items where !parts.items(name, encoded: encoded).allSatisfy({ matcher.matches(pattern, $0) }) {
                return false
            }
        case nil:
            break
        }
        return true
    }

    /// The component as written, for messages.
    var summary: String {
        var keys: [String] = []
        if let path { keys.append("\"/\": \"\(path)\"") }
        switch query {
        case .whole(let pattern)?: keys.append("\"?\": \"\(pattern)\"")
        case .items(let items)?:
            keys.append("\"?\": {" + items.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}")
        case nil: break
        }
        if let fragment { keys.append("\"#\": \"\(fragment)\"") }
        if exclude { keys.append("\"exclude\": true") }
        return "{" + keys.joined(separator: ", ") + "}"
    }
}

/// A URL's path, query, query items and fragment, percent-encoded or decoded; absent parts are "".
struct URLParts {
    let components: URLComponents?

    init(_ url: URL) {
        components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    }

    func path(encoded: Bool) -> String { (encoded ? components?.percentEncodedPath : components?.path) ?? "" }
    func query(encoded: Bool) -> String { (encoded ? components?.percentEncodedQuery : components?.query) ?? "" }
    func fragment(encoded: Bool) -> String { (encoded ? components?.percentEncodedFragment : components?.fragment) ?? "" }

    /// Every value given for `name` (an item without `=` has ""), or [""] when the name is absent.
    func items(_ name: String, encoded: Bool) -> [String] {
        let items = encoded ? components?.percentEncodedQueryItems : components?.queryItems
        let values = (items ?? []).filter { $0.name == name }.map { $0.value ?? "" }
        return values.isEmpty ? [""] : values
    }
}

/// The pattern language of `paths` and `components`: `*` any run of characters (even `/`, even
/// none), `?` exactly one, `$(name)` one of a variable's strings; no escapes (spec c.4, c.5).
/// Matching is GlobPattern's, linear in the text times the pattern.
struct PatternMatcher {
    let caseSensitive: Bool
    /// The file's variables, each compiled once however many patterns use it.
    private let variables: [String: WordSet]

    init(caseSensitive: Bool, variables: [String: [String]]) {
        self.caseSensitive = caseSensitive
        self.variables = variables.mapValues { WordSet($0, caseSensitive: caseSensitive) }
    }

    /// The predefined variables (spec c.5): a character of the class, or one of the ISO codes that
    /// Foundation knows (`$(region)` takes `GB` but not `UK`, `$(lang)` takes `en` and `ace` but not `qq`).
    static let predefinedClasses: [String: CharacterClass] = [
        "alpha": .alpha, "upper": .upper, "lower": .lower, "alnum": .alnum, "digit": .digit, "xdigit": .xdigit,
    ]
    static let regionCodes = Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) }
    static let languageCodes = Locale.LanguageCode.isoLanguageCodes.map(\.identifier).filter { $0.allSatisfy(\.isLetter) }
    private static let codeSets: [Bool: [String: WordSet]] = [
        true: ["region": WordSet(regionCodes), "lang": WordSet(languageCodes)],
        false: ["region": WordSet(regionCodes, caseSensitive: false), "lang": WordSet(languageCodes, caseSensitive: false)],
    ]

    func matches(_ pattern: String, _ text: String) -> Bool {
        GlobPattern(pattern, caseSensitive: caseSensitive, variable: element(named:)).matches(text)
    }

    /// What `$(name)` stands for: the file's variable first, then the predefined ones.
    private func element(named name: String) -> GlobPattern.Element? {
        if let words = variables[name] { return .words(words) }
        if let characterClass = Self.predefinedClasses[name] { return .characterClass(characterClass) }
        return Self.codeSets[caseSensitive]?[name].map { .words($0) }
    }
}
