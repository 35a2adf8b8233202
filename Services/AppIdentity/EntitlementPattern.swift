/// A value in a provisioning profile's entitlements that allows values in an app's signature:
/// exact text, or text ending in `*` that allows any value starting with what precedes it
/// (`ABCDE12345.*`). A lone `*` allows anything.
public struct EntitlementPattern: Hashable, Sendable {
    /// The pattern text.
    public let rawValue: String

    /// Wraps pattern text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether `value` is allowed by this pattern.
    public func matches(_ value: String) -> Bool {
        guard rawValue.hasSuffix("*") else { return value == rawValue }
        return value.hasPrefix(rawValue.dropLast())
    }
}
