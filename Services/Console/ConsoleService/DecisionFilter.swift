public import Decisions
import KeychainTypes

/// Which decisions a reader of the console asked for: `?device=&app=&status=`, each empty for any.
/// A device is matched by its UDID or its name in the world, an app by its bundle ID or its
/// application identifier, a status by its name (`errSecItemNotFound`), its code (`-25300`), or
/// `refused` for every decision that did not succeed.
public struct DecisionFilter: Sendable, Hashable {
    /// The device's UDID (a name is turned into its UDID by the caller, who knows the world).
    public var device: String?
    /// A bundle ID or an application identifier.
    public var app: String?
    /// A status name, a code, or `refused`.
    public var status: String?

    /// Everything.
    public static let all = DecisionFilter()

    /// A filter; an empty string is no filter.
    public init(device: String? = nil, app: String? = nil, status: String? = nil) {
        self.device = device.flatMap { $0.isEmpty ? nil : $0 }
        self.app = app.flatMap { $0.isEmpty ? nil : $0 }
        self.status = status.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether it filters at all.
    public var isEmpty: Bool { device == nil && app == nil && status == nil }

    /// Whether `decision` is one asked for.
    public func keeps(_ decision: Decision<RuleName>) -> Bool {
        if let device, decision.device != device { return false }
        if let app, decision.app != app, decision.appID != app { return false }
        if let status {
            switch status {
            case "refused": return decision.refused
            default:
                let code = decision.status.map { String($0.code) }
                return decision.name == status || code == status
            }
        }
        return true
    }
}
