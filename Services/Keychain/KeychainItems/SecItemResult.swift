public import KeychainTypes

/// What a SecItem call returns: its status and, for CopyMatching and Add, its result.
public struct SecItemResult: Hashable, Sendable {
    /// The OSStatus.
    public var status: SecStatus
    /// The result object, shaped as Apple shapes it; `nil` when there is none.
    public var result: SecValue?
    /// The rule that decided a non-zero status, and what it found.
    public var rule: SecItemError.Rule?
    public var reason: String?
    /// What the device's user must do first on a login keychain (see ``SecItemError``).
    public var confirmation: Confirmation?

    /// A success with an optional result.
    public static func success(_ result: SecValue? = nil) -> SecItemResult {
        SecItemResult(status: .success, result: result, rule: nil, reason: nil)
    }

    /// A failure.
    public static func failure(_ error: SecItemError) -> SecItemResult {
        SecItemResult(status: error.status, result: nil, rule: error.rule, reason: error.reason, confirmation: error.confirmation)
    }
}
