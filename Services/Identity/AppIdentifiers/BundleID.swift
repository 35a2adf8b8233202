public import LabErrors

/// A bundle identifier in reverse-DNS form, such as `com.example.AppOne`.
public struct BundleID: IdentifierText, Comparable {
    /// The identifier.
    public let rawValue: String

    /// Accepts letters, digits, `-` and `.`, with no empty component (Apple's CFBundleIdentifier rule).
    public init(_ rawValue: String) throws(IdentityError) {
        let components = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !rawValue.isEmpty && rawValue.utf8.count <= 255
            && components.allSatisfy { !$0.isEmpty }
            && rawValue.utf8.allSatisfy { Self.allowed.contains($0) }
        guard valid else {
            throw IdentityError(
                .malformedValue,
                "'\(rawValue)' is not a bundle ID: use letters, digits, '-' and '.' in reverse-DNS form (like com.example.AppOne)"
            )
        }
        self.rawValue = rawValue
    }

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.".utf8)
}
