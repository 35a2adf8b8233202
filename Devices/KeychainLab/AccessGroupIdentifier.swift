/// A keychain access group an app names, checked as it is built: a keychain group carries its team
/// (or app ID) prefix, an application group starts with `group.`.
public struct AccessGroupIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The group name as the keychain stores it.
    public let rawValue: String

    /// A keychain-access-groups group: `PREFIX.name`, where the prefix is the team ID or the app ID
    /// prefix (ten characters, A–Z 0–9), as `$(AppIdentifierPrefix)name` expands.
    public static func keychainGroup(prefix: String, name: String) throws(KeychainError) -> AccessGroupIdentifier {
        guard prefix.utf8.count == 10, prefix.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }), !name.isEmpty else {
            throw KeychainError.param
        }
        return AccessGroupIdentifier(unchecked: "\(prefix).\(name)")
    }

    /// An application group: `group.name`.
    public static func appGroup(_ name: String) throws(KeychainError) -> AccessGroupIdentifier {
        let full = name.hasPrefix("group.") ? name : "group.\(name)"
        guard full.count > "group.".count else { throw KeychainError.param }
        return AccessGroupIdentifier(unchecked: full)
    }

    /// Any non-empty name, unchecked: the escape hatch.
    public init(raw: String) throws(KeychainError) {
        guard !raw.isEmpty else { throw KeychainError.param }
        rawValue = raw
    }

    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
