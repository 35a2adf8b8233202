public import AppIdentity

/// Who makes a keychain call: an app, by the application identifier its verified signature
/// claims, or one of the lab's own system services (webcredentiald, `kclab explain`), by name.
public enum Caller: Hashable, Sendable, CustomStringConvertible {
    case app(AppID)
    case system(String)

    /// The application identifier, for an app.
    public var appID: AppID? {
        if case .app(let id) = self { return id }
        return nil
    }

    /// How logs, refusals and the audit log name the caller.
    public var description: String {
        switch self {
        case .app(let id): id.rawValue
        case .system(let name): name
        }
    }

    /// How a login keychain item's access control list names the caller: as macOS lists an app.
    var aclName: String { description }
}
