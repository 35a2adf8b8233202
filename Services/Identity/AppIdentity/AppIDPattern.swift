public import AppIdentifiers

/// The App ID registered for a profile: explicit (`ABCDE12345.com.example.AppOne`) or wildcard
/// (`ABCDE12345.*`, `ABCDE12345.com.example.*`), as the developer portal allows.
public struct AppIDPattern: IdentifierText {
    /// The pattern as written in a profile's `application-identifier` entitlement.
    public let rawValue: String

    /// Accepts `PREFIX.bundle.id`, `PREFIX.*` or `PREFIX.some.prefix.*`.
    public init(_ rawValue: String) throws(IdentityError) {
        if rawValue.hasSuffix(".*") {
            let stem = String(rawValue.dropLast(2))
            if !stem.contains(".") {
                _ = try TeamID(stem)
            } else {
                _ = try AppID(stem)
            }
        } else {
            _ = try AppID(rawValue)
        }
        self.rawValue = rawValue
    }

    /// The explicit pattern naming exactly `appID`.
    public init(explicit appID: AppID) {
        rawValue = appID.rawValue
    }

    /// A wildcard pattern covering every bundle ID under `prefix` that starts with `bundlePrefix`.
    public init(wildcard prefix: TeamID, bundlePrefix: String = "") {
        rawValue = prefix.prefix + (bundlePrefix.isEmpty ? "*" : bundlePrefix + ".*")
    }

    /// Whether this is a wildcard App ID.
    public var isWildcard: Bool { rawValue.hasSuffix("*") }

    /// Whether `appID` is the App ID this pattern names, or one its wildcard covers.
    public func matches(_ appID: AppID) -> Bool {
        EntitlementPattern(rawValue).matches(appID.rawValue)
    }
}
