/// The four SecItem functions, named once for every layer: Apple's function name, keychaind's
/// route (`POST /v1/items/{call}`), the call channel's wire tag and the device protocol's `op`.
public enum SecItemCall: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case add
    case copyMatching = "copy-matching"
    case update
    case delete

    /// Apple's name of the function (`SecItemAdd`, …).
    public var function: String {
        switch self {
        case .add: "SecItemAdd"
        case .copyMatching: "SecItemCopyMatching"
        case .update: "SecItemUpdate"
        case .delete: "SecItemDelete"
        }
    }

    /// Apple's name of the function, as messages print it.
    public var description: String { function }

    /// keychaind's route for it, for a registered app.
    public var route: String { "/v1/items/\(rawValue)" }

    /// keychaind's route for it, for a system service acting in a device's keychain.
    public var systemRoute: String { "/v1/system/items/\(rawValue)" }

    /// Its byte on the call channel.
    public var wireTag: UInt8 {
        switch self {
        case .add: 0
        case .copyMatching: 1
        case .update: 2
        case .delete: 3
        }
    }

    /// The call a wire tag stands for; nil for any other byte.
    public init?(wireTag: UInt8) {
        guard let call = Self.allCases.first(where: { $0.wireTag == wireTag }) else { return nil }
        self = call
    }
}
