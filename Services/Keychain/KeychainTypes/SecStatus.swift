/// An OSStatus a SecItem call returns, with Apple's name and message.
///
/// Only the statuses the keychain produces are here, each read from ``OSStatusTable`` by its name;
/// the Security module carries Apple's whole table for programs that print any status.
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

    /// The status Apple names `name`, from the table.
    private init(named name: String) {
        guard let entry = OSStatusTable.byName[name] else { preconditionFailure("\(name) is not in OSStatusTable") }
        self.init(entry.code, entry.name, entry.message)
    }

    public static let success = SecStatus(named: "errSecSuccess")
    public static let unimplemented = SecStatus(named: "errSecUnimplemented")
    public static let io = SecStatus(named: "errSecIO")
    public static let param = SecStatus(named: "errSecParam")
    public static let allocate = SecStatus(named: "errSecAllocate")
    public static let userCanceled = SecStatus(named: "errSecUserCanceled")
    public static let badReq = SecStatus(named: "errSecBadReq")
    public static let notAvailable = SecStatus(named: "errSecNotAvailable")
    public static let readOnly = SecStatus(named: "errSecReadOnly")
    public static let authFailed = SecStatus(named: "errSecAuthFailed")
    public static let duplicateItem = SecStatus(named: "errSecDuplicateItem")
    public static let itemNotFound = SecStatus(named: "errSecItemNotFound")
    public static let noSuchAttr = SecStatus(named: "errSecNoSuchAttr")
    public static let invalidItemRef = SecStatus(named: "errSecInvalidItemRef")
    public static let noSuchClass = SecStatus(named: "errSecNoSuchClass")
    public static let interactionNotAllowed = SecStatus(named: "errSecInteractionNotAllowed")
    public static let noAccessForItem = SecStatus(named: "errSecNoAccessForItem")
    public static let decode = SecStatus(named: "errSecDecode")
    public static let `internal` = SecStatus(named: "errSecInternal")
    public static let missingEntitlement = SecStatus(named: "errSecMissingEntitlement")
    public static let restrictedAPI = SecStatus(named: "errSecRestrictedAPI")

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
        self =
            SecStatus(code: code) ?? OSStatusTable.byCode[code].map { SecStatus($0.code, $0.name, $0.message) }
            ?? SecStatus(code, "OSStatus \(code)", "OSStatus \(code)")
    }
}
