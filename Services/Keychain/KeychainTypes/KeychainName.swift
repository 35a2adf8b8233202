/// Which keychain an item lives in, as keychaind names it: a device's data-protection keychain
/// (its local items and its copies of the iCloud account's synchronizable ones), or a Mac's login
/// keychain. One type for every place that builds or reads a keychain's name (`device:UDID`,
/// `login:UDID`).
public enum KeychainName: Hashable, Sendable, CustomStringConvertible {
    /// A device's own keychain, by its UDID.
    case device(String)
    /// A Mac's file-based login keychain, by the device's UDID.
    case login(String)

    /// The name as stored and sent.
    public var rawValue: String {
        switch self {
        case .device(let udid): "device:\(udid)"
        case .login(let udid): "login:\(udid)"
        }
    }

    /// Reads a stored name; nil for anything else.
    public init?(rawValue: String) {
        guard let colon = rawValue.firstIndex(of: ":") else { return nil }
        let value = String(rawValue[rawValue.index(after: colon)...])
        guard !value.isEmpty else { return nil }
        switch rawValue[..<colon] {
        case "device": self = .device(value)
        case "login": self = .login(value)
        default: return nil
        }
    }

    public var description: String { rawValue }
}
