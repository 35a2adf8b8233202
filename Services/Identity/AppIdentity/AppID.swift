public import LabErrors

/// An application identifier: an app ID prefix (the team ID or a legacy bundle seed ID) and a
/// bundle ID, such as `ABCDE12345.com.example.AppOne`. It names the app's private access group.
public struct AppID: IdentifierText, Comparable {
    /// The team ID or bundle seed ID before the first dot.
    public let prefix: TeamID
    /// The bundle ID after it.
    public let bundleID: BundleID

    /// Joins a prefix and a bundle ID.
    public init(prefix: TeamID, bundleID: BundleID) {
        self.prefix = prefix
        self.bundleID = bundleID
    }

    /// Parses `PREFIX.bundle.id`.
    public init(_ rawValue: String) throws(IdentityError) {
        guard let dot = rawValue.firstIndex(of: ".") else {
            throw IdentityError(.malformedValue, "'\(rawValue)' is not an app ID: expected PREFIX.bundle.id")
        }
        prefix = try TeamID(String(rawValue[..<dot]))
        bundleID = try BundleID(String(rawValue[rawValue.index(after: dot)...]))
    }

    /// `PREFIX.bundle.id`.
    public var rawValue: String { prefix.prefix + bundleID.rawValue }
}

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
