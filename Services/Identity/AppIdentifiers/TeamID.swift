public import LabErrors

/// A development team's identifier: ten upper-case letters or digits, such as `ABCDE12345`.
///
/// A legacy bundle seed ID has the same form, so this type also carries app ID prefixes.
public struct TeamID: IdentifierText, Comparable {
    /// The ten characters.
    public let rawValue: String

    /// Accepts exactly ten characters from `A`–`Z` and `0`–`9`.
    public init(_ rawValue: String) throws(IdentityError) {
        guard rawValue.utf8.count == 10, rawValue.utf8.allSatisfy({ Self.allowed.contains($0) }) else {
            throw IdentityError(
                .malformedValue,
                "'\(rawValue)' is not a team ID: expected 10 characters, A-Z and 0-9 (like ABCDE12345)"
            )
        }
        self.rawValue = rawValue
    }

    /// The team standing in for Apple's platform signing: what it signs, devices and keychaind treat
    /// as Apple's own binaries (a real platform binary has no team; spec keychain.md §1.6).
    public static let platform = try! TeamID("0000000000")

    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

    /// The prefix Xcode writes for `$(TeamIdentifierPrefix)` or `$(AppIdentifierPrefix)`: the ID and a dot.
    public var prefix: String { rawValue + "." }
}
