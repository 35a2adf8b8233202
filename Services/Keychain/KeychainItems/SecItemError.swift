public import KeychainTypes

/// A SecItem call that ends with a non-zero status, and the rule that decided it.
///
/// The reason is for logs and `kclab explain`; the caller of the C API sees only the status, as on
/// a real device.
public struct SecItemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The OSStatus a real device would return.
    public let status: SecStatus
    /// Which rule decided, naming the key, group or value involved (never a secret).
    public let reason: String
    /// On a Mac's login keychain: what the device's user must do first (allow the app the use of
    /// an item, or unlock the keychain), for the device to ask.
    public let confirmation: Confirmation?

    /// An error with its status and reason.
    public init(_ status: SecStatus, _ reason: String, confirmation: Confirmation? = nil) {
        self.status = status
        self.reason = reason
        self.confirmation = confirmation
    }

    /// `errSecParam (-50): reason`.
    public var description: String { "\(status): \(reason)" }
}
