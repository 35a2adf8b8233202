public import LabErrors

/// A bundle identifier in reverse-DNS form, such as `com.example.AppOne`.
public struct BundleID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
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

    public var description: String { rawValue }

    public static func < (lhs: BundleID, rhs: BundleID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        try self.init(value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
