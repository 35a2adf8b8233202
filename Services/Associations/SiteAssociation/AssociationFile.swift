/// An apple-app-site-association file (spec associations.md part c): which apps each service
/// names, and for universal links the patterns of each `details` entry.
public struct AssociationFile: Sendable, Hashable {
    /// `webcredentials.apps`, `activitycontinuation.apps`, `appclips.apps`: nil when the service is absent.
    public var apps: [AssociationService: [String]] = [:]
    /// `applinks`, when present.
    public var appLinks: AppLinks?

    /// The universal-links part.
    public struct AppLinks: Sendable, Hashable {
        /// The legacy `apps` array (must be empty), when present.
        public var apps: [String]?
        public var details: [Detail] = []
        public var defaults = MatchingDefaults()
        /// `substitutionVariables`: name → the strings `$(name)` stands for.
        public var substitutionVariables: [String: [String]] = [:]
    }

    /// One `details` entry: the apps it is for and their patterns.
    public struct Detail: Sendable, Hashable {
        /// `appIDs`, or `[appID]`.
        public var appIDs: [String]
        /// `appID` as written, the only key iOS 12 and earlier read.
        public var appID: String? = nil
        /// Legacy `paths` (iOS 9–12, and later when there are no components).
        public var paths: [String]?
        /// `components` (iOS 13+).
        public var components: [Component]?
        public var defaults = MatchingDefaults()
        /// Where the entry starts in the file.
        public var position: TextPosition
    }

    /// One `components` entry.
    public struct Component: Sendable, Hashable {
        /// `/`: the path pattern.
        public var path: String?
        /// `?`: the whole query's pattern, or a pattern per query item.
        public var query: QueryPattern?
        /// `#`: the fragment's pattern.
        public var fragment: String?
        public var exclude = false
        public var caseSensitive: Bool?
        public var percentEncoded: Bool?
        public var comment: String?
    }

    public enum QueryPattern: Sendable, Hashable {
        case whole(String)
        case items([String: String])
    }

    /// `caseSensitive` and `percentEncoded` when a level gives them.
    public struct MatchingDefaults: Sendable, Hashable {
        public var caseSensitive: Bool?
        public var percentEncoded: Bool?
    }

    /// The app IDs associated for `service`, each once, in the file's order: for applinks, every
    /// app a `details` entry names.
    public func appIDs(for service: AssociationService, era: Int = 17) -> [String] {
        let listed = service == .applinks ? appLinks?.details.flatMap { $0.appIDs(era: era) } ?? [] : apps[service] ?? []
        var seen = Set<String>()
        return listed.filter { seen.insert($0).inserted }
    }
}

extension AssociationFile.Detail {
    /// The apps this entry is for on a device of iOS `era`: from iOS 13, `appIDs` (or `appID`);
    /// iOS 12 and earlier read only `appID` with `paths`, and skip entries written for iOS 13.
    public func appIDs(era: Int) -> [String] {
        guard era < 13 else { return appIDs }
        guard let appID, paths != nil else { return [] }
        return [appID]
    }
}
