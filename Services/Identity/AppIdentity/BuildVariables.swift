import Foundation
public import LabErrors

/// The build settings Xcode substitutes into entitlements when it signs an app:
/// `$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)` and `$(PRODUCT_BUNDLE_IDENTIFIER)`.
public struct BuildVariables: Hashable, Sendable {
    /// Each variable's name and its value.
    public let values: [String: String]

    /// The variables for an app signed with `appIDPrefix` (the team ID or a bundle seed ID) by `team`.
    public init(appIDPrefix: TeamID, team: TeamID, bundleID: BundleID) {
        values = [
            "AppIdentifierPrefix": appIDPrefix.prefix,
            "TeamIdentifierPrefix": team.prefix,
            "PRODUCT_BUNDLE_IDENTIFIER": bundleID.rawValue,
        ]
    }

    /// Replaces every `$(NAME)` in `text`; an unknown name is an error, as it is for Xcode.
    public func expand(_ text: String) throws(IdentityError) -> String {
        var result = ""
        var rest = Substring(text)
        // firstRange(of:) searches in place (Foundation's range(of:) copies the rest each time).
        while let start = rest.firstRange(of: "$(") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: ")") else {
                throw IdentityError(.malformedValue, "unterminated build variable in '\(text)'")
            }
            let name = String(rest[start.upperBound..<end])
            guard let value = values[name] else {
                let known = values.keys.sorted().map { "$(\($0))" }.joined(separator: ", ")
                throw IdentityError(.malformedValue, "unknown build variable $(\(name)) in '\(text)' (known: \(known))")
            }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// Expands every string in `value`, however deeply nested.
    public func expand(_ value: PlistValue) throws(IdentityError) -> PlistValue {
        switch value {
        case .string(let text):
            return .string(try expand(text))
        case .array(let elements):
            var expanded: [PlistValue] = []
            for element in elements { expanded.append(try expand(element)) }
            return .array(expanded)
        case .dictionary(let entries):
            var expanded: [String: PlistValue] = [:]
            for (key, element) in entries { expanded[key] = try expand(element) }
            return .dictionary(expanded)
        default:
            return value
        }
    }

    /// Expands every entitlement's value.
    public func expand(_ entitlements: Entitlements) throws(IdentityError) -> Entitlements {
        var expanded = Entitlements()
        for (key, value) in entitlements.values { expanded[key] = try expand(value) }
        return expanded
    }
}
