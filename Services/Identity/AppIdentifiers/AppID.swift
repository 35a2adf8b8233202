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
