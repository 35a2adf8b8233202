/// An OSStatus a SecItem call returns, with Apple's name and message.
///
/// Only the statuses the keychain produces are here; the Security module carries Apple's whole
/// table for programs that print any status.
public struct SecStatus: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The OSStatus value.
    public let code: Int32
    /// Apple's constant name, such as `errSecItemNotFound`.
    public let name: String
    /// `SecCopyErrorMessageString`'s text.
    public let message: String

    private init(_ code: Int32, _ name: String, _ message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    public static let success = SecStatus(0, "errSecSuccess", "No error.")
    public static let unimplemented = SecStatus(-4, "errSecUnimplemented", "Function or operation not implemented.")
    public static let io = SecStatus(-36, "errSecIO", "I/O error.")
    public static let param = SecStatus(-50, "errSecParam", "One or more parameters passed to a function were not valid.")
    public static let allocate = SecStatus(-108, "errSecAllocate", "Failed to allocate memory.")
    public static let userCanceled = SecStatus(-128, "errSecUserCanceled", "User canceled the operation.")
    public static let badReq = SecStatus(-909, "errSecBadReq", "Bad parameter or invalid state for operation.")
    public static let notAvailable = SecStatus(-25291, "errSecNotAvailable", "No keychain is available. You may need to restart your computer.")
    public static let readOnly = SecStatus(-25292, "errSecReadOnly", "This keychain cannot be modified.")
    public static let authFailed = SecStatus(-25293, "errSecAuthFailed", "The user name or passphrase you entered is not correct.")
    public static let duplicateItem = SecStatus(-25299, "errSecDuplicateItem", "The specified item already exists in the keychain.")
    public static let itemNotFound = SecStatus(-25300, "errSecItemNotFound", "The specified item could not be found in the keychain.")
    public static let noSuchAttr = SecStatus(-25303, "errSecNoSuchAttr", "The specified attribute does not exist.")
    public static let invalidItemRef = SecStatus(
        -25304,
        "errSecInvalidItemRef",
        "The specified item is no longer valid. It may have been deleted from the keychain."
    )
    public static let noSuchClass = SecStatus(-25306, "errSecNoSuchClass", "The specified item does not appear to be a valid keychain item.")
    public static let interactionNotAllowed = SecStatus(-25308, "errSecInteractionNotAllowed", "User interaction is not allowed.")
    public static let noAccessForItem = SecStatus(-25243, "errSecNoAccessForItem", "The specified item has no access control.")
    public static let decode = SecStatus(-26275, "errSecDecode", "Unable to decode the provided data.")
    public static let `internal` = SecStatus(-26276, "errSecInternal", "An internal error occurred in the Security framework.")
    public static let missingEntitlement = SecStatus(-34018, "errSecMissingEntitlement", "A required entitlement isn't present.")
    public static let restrictedAPI = SecStatus(-34020, "errSecRestrictedAPI", "Operation not allowed in this context.")

    /// Every status the keychain produces.
    public static let all: [SecStatus] = [
        success, unimplemented, io, param, allocate, userCanceled, badReq, notAvailable, readOnly, authFailed,
        duplicateItem, itemNotFound, noSuchAttr, invalidItemRef, noSuchClass, interactionNotAllowed, noAccessForItem,
        decode, `internal`, missingEntitlement, restrictedAPI,
    ]

    /// The status with this code, if the keychain produces it.
    public init?(code: Int32) {
        guard let status = Self.all.first(where: { $0.code == code }) else { return nil }
        self = status
    }

    /// `errSecItemNotFound (-25300)`.
    public var description: String { "\(name) (\(code))" }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(Int32.self)
        self = SecStatus(code: code) ?? SecStatus(code, "OSStatus \(code)", "OSStatus \(code)")
    }
}
