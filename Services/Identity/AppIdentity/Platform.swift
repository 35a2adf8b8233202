/// An Apple platform a device runs, and an app is built for.
public enum Platform: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case ios
    case macos

    /// The name a provisioning profile's `Platform` array uses.
    public var profileName: String {
        switch self {
        case .ios: "iOS"
        case .macos: "OSX"
        }
    }

    /// The entitlement key holding the application identifier on this platform.
    public var applicationIdentifierKey: String {
        switch self {
        case .ios: EntitlementKey.applicationIdentifier
        case .macos: EntitlementKey.macApplicationIdentifier
        }
    }

    public var description: String {
        switch self {
        case .ios: "iOS"
        case .macos: "macOS"
        }
    }
}
