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

    /// Replaces every reference in `text` (`$(NAME)`, `${NAME}`, with Xcode's operators:
    /// `$(PRODUCT_BUNDLE_IDENTIFIER:lower)`) through the lab's one expander; an unknown name, a
    /// reference never closed or an unknown operator is an error, naming the variables there are.
    public func expand(_ text: String) throws(IdentityError) -> String {
        var expander = BuildSettingExpander(policy: .strict(known: values.keys.sorted()), levels: [values])
        return try expander.expand(text)
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
