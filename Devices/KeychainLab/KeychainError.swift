public import KeychainLabSecurity

/// A SecItem call that did not succeed, typed by what apps handle, keeping the raw OSStatus and the
/// Security framework's message.
public struct KeychainError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw OSStatus.
    public let status: OSStatus
    /// For errSecMissingEntitlement: the group that was named, if any.
    public let group: String?

    public init(status: OSStatus, group: String? = nil) {
        self.status = status
        self.group = group
    }

    /// errSecMissingEntitlement (-34018): the app does not belong to the group it named.
    public static func missingEntitlement(group: String?) -> KeychainError { KeychainError(status: errSecMissingEntitlement, group: group) }
    /// errSecItemNotFound (-25300).
    public static let itemNotFound = KeychainError(status: errSecItemNotFound)
    /// errSecDuplicateItem (-25299).
    public static let duplicateItem = KeychainError(status: errSecDuplicateItem)
    /// errSecInteractionNotAllowed (-25308): the device is locked.
    public static let interactionNotAllowed = KeychainError(status: errSecInteractionNotAllowed)
    /// errSecUserCanceled (-128).
    public static let userCanceled = KeychainError(status: errSecUserCanceled)
    /// errSecParam (-50).
    public static let param = KeychainError(status: errSecParam)

    /// `SecCopyErrorMessageString`'s text.
    public var message: String {
        SecCopyErrorMessageString(status, nil).map { String(describing: $0) } ?? "OSStatus \(status)"
    }

    /// Apple's constant name, such as `errSecItemNotFound`.
    public var name: String {
        Self.name(of: status) ?? "OSStatus \(status)"
    }

    /// Apple's constant name for any status, such as `errSecItemNotFound`; `nil` for a status
    /// SecBase.h does not name. Not a Security function: Apple's framework has none.
    public static func name(of status: OSStatus) -> String? {
        secErrorsByStatus[status]?.name
    }

    public var description: String {
        "\(name) (\(status)): \(message)" + (group.map { " [group \($0)]" } ?? "")
    }

    public static func == (lhs: KeychainError, rhs: KeychainError) -> Bool { lhs.status == rhs.status }
    public func hash(into hasher: inout Hasher) { hasher.combine(status) }
}
