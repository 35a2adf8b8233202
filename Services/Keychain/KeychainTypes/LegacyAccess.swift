/// The value of `kSecAttrAccess` (`acls`): a `SecAccess` of macOS's legacy access control lists,
/// as the Security module sends it and keychaind reads it for an item added to a Mac's login
/// keychain (spec keychain.md §5). It holds the name the Mac's prompts give the item and the apps
/// trusted with its secret.
///
/// Its SecValue form is `{"$access": DESCRIPTOR, "trusted": [{"self": true} | {"path": PATH}, …]}`,
/// without `trusted` when SecAccessCreate was given no list.
public struct LegacyAccess: Hashable, Sendable {
    /// An app on the list, as `SecTrustedApplicationCreateFromPath` names it.
    public enum TrustedApplication: Hashable, Sendable {
        /// The app that made it (no path): the app that adds the item.
        case caller
        /// The application or tool at a path.
        case path(String)
    }

    /// The attribute's key, `kSecAttrAccess`.
    public static let key = "acls"

    /// The item's name in the Mac's prompts.
    public var descriptor: String
    /// The apps trusted with the item's secret; `nil` for SecAccessCreate's default, the app that
    /// adds the item alone. An empty list trusts no app, not even that one.
    public var trustedApplications: [TrustedApplication]?

    public init(descriptor: String, trustedApplications: [TrustedApplication]?) {
        self.descriptor = descriptor
        self.trustedApplications = trustedApplications
    }

    /// Reads the SecValue form; `nil` for any other value (a caller's `acls` that is no SecAccess).
    public init?(_ value: SecValue) {
        guard case .dictionary(let entries) = value, case .string(let descriptor)? = entries["$access"] else { return nil }
        var applications: [TrustedApplication]? = nil
        if let listed = entries["trusted"] {
            guard case .array(let elements) = listed else { return nil }
            var list: [TrustedApplication] = []
            for element in elements {
                guard case .dictionary(let application) = element, application.count == 1 else { return nil }
                if application["self"] == .bool(true) {
                    list.append(.caller)
                } else if case .string(let path)? = application["path"] {
                    list.append(.path(path))
                } else {
                    return nil
                }
            }
            applications = list
        }
        self.init(descriptor: descriptor, trustedApplications: applications)
    }

    /// The SecValue form.
    public var secValue: SecValue {
        var entries: [String: SecValue] = ["$access": .string(descriptor)]
        if let trustedApplications {
            entries["trusted"] = .array(
                trustedApplications.map { application in
                    switch application {
                    case .caller: .dictionary(["self": .bool(true)])
                    case .path(let path): .dictionary(["path": .string(path)])
                    }
                }
            )
        }
        return .dictionary(entries)
    }
}
