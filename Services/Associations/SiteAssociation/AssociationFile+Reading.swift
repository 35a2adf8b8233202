public import Foundation

extension AssociationFile {
    /// The largest file a device accepts: 128 KB, read as 131,072 bytes (spec associations.md b.2).
    public static let maximumSize = 131_072

    /// What reading a file gave: the file (nil when it is unusable) and every check made.
    public struct Reading: Sendable, Hashable {
        public var file: AssociationFile?
        public var checks: [Check]

        /// Whether a check failed.
        public var failed: Bool { checks.contains { $0.result == .fail } }
    }

    /// Reads a file's JSON bytes, applying the schema rules of spec associations.md c.6: errors
    /// deny the file (or the entry), warnings do not.
    public static func read(_ data: Data) -> Reading {
        var checks: [Check] = []
        guard data.count <= maximumSize else {
            return Reading(file: nil, checks: [.fail(.sizeLimit, "\(data.count) bytes is more than the 131,072 (128 KB) a device reads")])
        }
        var body = data
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            checks.append(.warn(.byteOrderMark, "the file starts with a UTF-8 byte order mark; JSON must not, and strict parsers refuse it"))
            body = body.dropFirst(3)
        }
        let root: Positioned
        do {
            root = try PositionedJSONParser.parse(body)
        } catch {
            checks.append(.fail(.jsonSyntax, "not valid JSON at \(error.position): \(error.message)"))
            return Reading(file: nil, checks: checks)
        }
        checks.append(.pass(.jsonSyntax, "valid JSON"))
        guard case .object(let members) = root.node else {
            checks.append(.fail(.topLevelObject, "the file is \(root.node.typeName) at \(root.position), not an object"))
            return Reading(file: nil, checks: checks)
        }
        var reader = SchemaReader()
        var file = AssociationFile()
        for (key, value) in members {
            if let service = AssociationService(rawValue: key), service != .authsrv {
                if service == .applinks {
                    file.appLinks = reader.appLinks(value)
                } else if let apps = reader.serviceApps(value, service: key) {
                    file.apps[service] = apps
                }
            } else {
                reader.warn(.unknownKey, "'\(key)' at \(value.position) is not a service Apple reads; it is ignored")
            }
        }
        checks += reader.checks
        if !reader.checks.contains(where: { $0.result == .fail }) {
            checks.append(.pass(.schema, "every service has the shape Apple documents"))
        }
        return Reading(file: file, checks: checks)
    }
}

/// Walks the file, collecting failures and warnings with their places.
struct SchemaReader {
    var checks: [Check] = []

    mutating func fail(_ rule: Check.Rule, _ detail: String) { checks.append(.fail(rule, detail)) }
    mutating func warn(_ rule: Check.Rule, _ detail: String) { checks.append(.warn(rule, detail)) }

    static let predefinedVariables: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    /// `{"apps": [...]}` of webcredentials, activitycontinuation and appclips.
    mutating func serviceApps(_ value: Positioned, service: String) -> [String]? {
        guard case .object(let members) = value.node else {
            fail(.serviceType, "'\(service)' at \(value.position) is \(value.node.typeName), not an object")
            return nil
        }
        for (key, member) in members where key != "apps" {
            warn(.unknownKey, "'\(service).\(key)' at \(member.position) is not a key Apple reads")
        }
        guard let apps = value["apps"] else {
            warn(.appsMissing, "'\(service)' at \(value.position) has no 'apps': it associates no app")
            return []
        }
        guard let list = strings(apps, what: "'\(service).apps'", rule: .appsType) else { return nil }
        for (id, position) in list { checkAppID(id, at: position) }
        return list.map(\.0)
    }

    mutating func appLinks(_ value: Positioned) -> AssociationFile.AppLinks? {
        guard case .object(let members) = value.node else {
            fail(.serviceType, "'applinks' at \(value.position) is \(value.node.typeName), not an object")
            return nil
        }
        var links = AssociationFile.AppLinks()
        for (key, member) in members where !["apps", "details", "defaults", "substitutionVariables"].contains(key) {
            warn(.unknownKey, "'applinks.\(key)' at \(member.position) is not a key Apple reads")
        }
        if let apps = value["apps"] {
            links.apps = strings(apps, what: "'applinks.apps'", rule: .appsType)?.map(\.0)
            if let list = links.apps, !list.isEmpty {
                warn(.applinksApps, "'applinks.apps' at \(apps.position) must be an empty array; app IDs belong in 'details'")
            }
        } else {
            warn(.applinksApps, "'applinks' has no 'apps': iOS 12 and earlier need \"apps\": []")
        }
        if let defaults = value["defaults"] { links.defaults = matchingDefaults(defaults, what: "'applinks.defaults'") }
        if let variables = value["substitutionVariables"] { links.substitutionVariables = substitutionVariables(variables) }
        if let details = value["details"] {
            switch details.node {
            case .array(let entries):
                var seen: Set<String> = []
                for entry in entries {
                    guard let detail = detail(entry, variables: links.substitutionVariables) else { continue }
                    for id in detail.appIDs where !seen.insert(id).inserted {
                        warn(.appIdRepeated, "\(id) is listed again at \(entry.position); only the first entry naming it is read")
                    }
                    links.details.append(detail)
                }
            case .object:
                fail(
                    .detailsType,
                    "'applinks.details' at \(details.position) is an object keyed by app ID (an iOS 9 beta shape); it must be an array"
                )
            default:
                fail(.detailsType, "'applinks.details' at \(details.position) is \(details.node.typeName), not an array")
            }
        }
        return links
    }

    private mutating func detail(_ entry: Positioned, variables: [String: [String]]) -> AssociationFile.Detail? {
        guard case .object(let members) = entry.node else {
            fail(.detailsType, "a 'details' entry at \(entry.position) is \(entry.node.typeName), not an object")
            return nil
        }
        let known = ["appID", "appIDs", "paths", "components", "defaults", "comment"]
        for (key, member) in members where !known.contains(key) {
            warn(.unknownKey, "'\(key)' at \(member.position) is not a key of a 'details' entry")
        }
        var ids: [String]? = nil
        if let list = entry["appIDs"] {
            ids = strings(list, what: "'appIDs'", rule: .appIdType)?.map(\.0)
            if ids?.isEmpty == true { warn(.appIdsEmpty, "'appIDs' at \(list.position) is empty") }
            for (id, position) in strings(list, what: nil, rule: nil) ?? [] { checkAppID(id, at: position) }
        }
        if ids == nil, let single = entry["appID"] {
            guard case .string(let id) = single.node else {
                fail(.appIdType, "'appID' at \(single.position) is \(single.node.typeName), not a string")
                return nil
            }
            checkAppID(id, at: single.position)
            ids = [id]
        }
        guard let appIDs = ids else {
            fail(.appIdType, "the 'details' entry at \(entry.position) names no app ('appID' or 'appIDs')")
            return nil
        }
        var detail = AssociationFile.Detail(appIDs: appIDs, position: entry.position)
        if case .string(let id)? = entry["appID"]?.node { detail.appID = id }
        if let paths = entry["paths"] {
            guard let list = strings(paths, what: "'paths'", rule: .pathsType) else { return nil }
            detail.paths = list.map(\.0)
            checkPaths(list)
        }
        if let components = entry["components"] {
            guard case .array(let items) = components.node else {
                fail(.componentsType, "'components' at \(components.position) is \(components.node.typeName), not an array")
                return nil
            }
            var parsed: [AssociationFile.Component] = []
            for item in items {
                guard let component = component(item, variables: variables) else { return nil }
                parsed.append(component)
            }
            detail.components = parsed
        }
        if (entry["appID"] != nil && entry["components"] != nil) || (entry["appIDs"] != nil && entry["paths"] != nil) {
            warn(.mixedFormats, "the entry at \(entry.position) mixes appID/paths with appIDs/components; iOS 13+ reads components")
        }
        if let defaults = entry["defaults"] { detail.defaults = matchingDefaults(defaults, what: "the entry's 'defaults'") }
        return detail
    }

    private mutating func component(_ item: Positioned, variables: [String: [String]]) -> AssociationFile.Component? {
        guard case .object(let members) = item.node else {
            fail(.componentType, "a component at \(item.position) is \(item.node.typeName), not an object")
            return nil
        }
        var component = AssociationFile.Component()
        for (key, value) in members {
            switch (key, value.node) {
            case ("/", .string(let pattern)): component.path = pattern
            case ("#", .string(let pattern)): component.fragment = pattern
            case ("?", .string(let pattern)): component.query = .whole(pattern)
            case ("?", .object(let items)):
                var patterns: [String: String] = [:]
                for (name, pattern) in items {
                    guard case .string(let text) = pattern.node else {
                        fail(.componentType, "query item '\(name)' at \(pattern.position) is \(pattern.node.typeName), not a string")
                        return nil
                    }
                    patterns[name] = text
                }
                component.query = .items(patterns)
            case ("exclude", .bool(let flag)): component.exclude = flag
            case ("caseSensitive", .bool(let flag)): component.caseSensitive = flag
            case ("percentEncoded", .bool(let flag)): component.percentEncoded = flag
            case ("comment", .string(let text)): component.comment = text
            case ("/", _), ("#", _), ("?", _), ("exclude", _), ("caseSensitive", _), ("percentEncoded", _), ("comment", _):
                fail(.componentType, "component key '\(key)' at \(value.position) is \(value.node.typeName)")
                return nil
            default:
                warn(.unknownKey, "'\(key)' at \(value.position) is not a component key")
            }
        }
        if component.exclude, case .items(let items) = component.query, items.values.contains("*") {
            warn(
                .excludeWildcardItem,
                "an exclude component at \(item.position) has a query item '*', which also matches a missing item: it excludes every URL"
            )
        }
        for pattern in [component.path, component.fragment].compactMap({ $0 }) + queryPatterns(component.query) {
            checkVariables(pattern, variables: variables, at: item.position)
        }
        return component
    }

    private func queryPatterns(_ query: AssociationFile.QueryPattern?) -> [String] {
        switch query {
        case .whole(let pattern): [pattern]
        case .items(let items): Array(items.values)
        case nil: []
        }
    }

    private mutating func checkVariables(_ pattern: String, variables: [String: [String]], at position: TextPosition) {
        var rest = Substring(pattern)
        // firstRange(of:) searches in place (Foundation's range(of:) copies the rest each time).
        while let start = rest.firstRange(of: "$(") {
            guard let end = rest[start.upperBound...].firstIndex(of: ")") else { break }
            let name = String(rest[start.upperBound..<end])
            if variables[name] == nil, !Self.predefinedVariables.contains(name) {
                fail(.undefinedVariable, "$(\(name)) in the component at \(position) is neither predefined nor in 'substitutionVariables'")
            }
            rest = rest[rest.index(after: end)...]
        }
    }

    private mutating func checkPaths(_ paths: [(String, TextPosition)]) {
        var unreachable = false
        for (pattern, position) in paths {
            if unreachable {
                warn(.unreachablePattern, "'\(pattern)' at \(position) comes after a pattern matching every path: it is never reached")
                continue
            }
            let bare = pattern.hasPrefix("NOT ") ? String(pattern.dropFirst(4)) : pattern
            if !bare.hasPrefix("/"), !bare.hasPrefix("*") {
                warn(.patternSlash, "'\(pattern)' at \(position) does not start with '/': paths do, so it never matches")
            }
            if bare == "*" { unreachable = true }
        }
    }

    private mutating func matchingDefaults(_ value: Positioned, what: String) -> AssociationFile.MatchingDefaults {
        var defaults = AssociationFile.MatchingDefaults()
        guard case .object(let members) = value.node else {
            fail(.defaultsType, "\(what) at \(value.position) is \(value.node.typeName), not an object")
            return defaults
        }
        for (key, member) in members {
            switch (key, member.node) {
            case ("caseSensitive", .bool(let flag)): defaults.caseSensitive = flag
            case ("percentEncoded", .bool(let flag)): defaults.percentEncoded = flag
            case ("caseSensitive", _), ("percentEncoded", _):
                fail(.defaultsType, "'\(key)' at \(member.position) is \(member.node.typeName), not a Boolean")
            default: warn(.unknownKey, "'\(key)' at \(member.position) is not a key of \(what)")
            }
        }
        return defaults
    }

    private mutating func substitutionVariables(_ value: Positioned) -> [String: [String]] {
        guard case .object(let members) = value.node else {
            fail(.variablesType, "'substitutionVariables' at \(value.position) is \(value.node.typeName), not an object")
            return [:]
        }
        var variables: [String: [String]] = [:]
        for (name, list) in members {
            if name.contains(where: { "$()".contains($0) }) {
                fail(.variablesType, "the variable name '\(name)' at \(list.position) may not contain '$', '(' or ')'")
            }
            variables[name] = strings(list, what: "variable '\(name)'", rule: .variablesType)?.map(\.0)
        }
        return variables
    }

    /// An array of strings with their positions; records a failure under `rule` otherwise.
    private mutating func strings(_ value: Positioned, what: String?, rule: Check.Rule?) -> [(String, TextPosition)]? {
        guard case .array(let elements) = value.node else {
            if let rule, let what { fail(rule, "\(what) at \(value.position) is \(value.node.typeName), not an array of strings") }
            return nil
        }
        var result: [(String, TextPosition)] = []
        for element in elements {
            guard case .string(let text) = element.node else {
                if let rule, let what { fail(rule, "an element of \(what) at \(element.position) is \(element.node.typeName), not a string") }
                return nil
            }
            result.append((text, element.position))
        }
        return result
    }

    /// Warns about app IDs that can never match a signed application identifier (spec c.2).
    private mutating func checkAppID(_ id: String, at position: TextPosition) {
        if id.contains("$(") || id.contains("DEVELOPMENT_TEAM") || id.contains("PRODUCT_BUNDLE_IDENTIFIER") {
            warn(.appIdFormat, "'\(id)' at \(position) holds an Xcode placeholder, not a real app ID")
            return
        }
        guard let dot = id.firstIndex(of: ".") else {
            warn(.appIdFormat, "'\(id)' at \(position) has no team prefix: an app ID is PREFIX.bundle.id")
            return
        }
        let prefix = id[..<dot]
        if prefix.count != 10 || !prefix.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) {
            warn(.appIdFormat, "'\(id)' at \(position) does not start with a 10-character team or app ID prefix")
        }
    }
}
