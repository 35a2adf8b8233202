import Foundation
public import KeychainTypes

/// A keychain item class: `kSecClass`'s value.
public enum ItemClass: String, Hashable, Sendable, CaseIterable, Codable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    case identity = "idnt"

    /// The attributes of the class, by their four-character code.
    public var schema: ClassSchema {
        switch self {
        case .genericPassword: .genericPassword
        case .internetPassword: .internetPassword
        case .certificate: .certificate
        case .key: .key
        case .identity: .identity
        }
    }
}

/// How an attribute's value is typed and stored (spec keychain.md §2.1, src SecItemSchema.c).
public enum AttributeKind: Hashable, Sendable {
    /// CFString only.
    case string
    /// CFString or CFData, kept as given: the caller's type round-trips.
    case blob
    /// CFNumber; also accepts CFBoolean and decimal strings.
    case number
    /// CFDate.
    case date
    /// `kSecAttrAccessible`: one of the protection-class codes.
    case accessibility
    /// `kSecAttrAccessControl`: an access-control object (its protection is honoured).
    case accessControl
    /// `kSecAttrSynchronizable`: a number, or `kSecAttrSynchronizableAny` in queries.
    case synchronizable
}

/// One attribute of a class.
public struct AttributeSpec: Hashable, Sendable {
    /// The four-character code (`acct`).
    public let code: String
    /// How its value is typed.
    public let kind: AttributeKind
    /// Whether it is part of the class's primary key.
    public let isPrimaryKey: Bool
    /// The value a primary-key attribute gets when an add omits it (`""`, 0 or the epoch).
    public let defaultValue: SecValue?
    /// Whether it is sealed with the item's data and comes back only with it (`kSecReturnData`),
    /// never as a plain attribute: the internet password's extra data fields.
    public let travelsWithData: Bool

    init(_ code: String, _ kind: AttributeKind, primaryKey: Bool = false, travelsWithData: Bool = false) {
        self.code = code
        self.kind = kind
        self.isPrimaryKey = primaryKey
        self.travelsWithData = travelsWithData
        switch (primaryKey, kind) {
        case (true, .string), (true, .blob): defaultValue = .string("")
        case (true, .number), (true, .synchronizable): defaultValue = .integer(0)
        case (true, .date): defaultValue = .date(.init(timeIntervalSinceReferenceDate: 0))
        default: defaultValue = nil
        }
    }
}

/// The attributes of one class, in schema order; identities take both certificate and key attributes.
public struct ClassSchema: Hashable, Sendable {
    /// Every attribute, in the order results list them.
    public let attributes: [AttributeSpec]
    private let index: [String: AttributeSpec]
    /// The codes of the attributes that come back only with the data (``AttributeSpec/travelsWithData``).
    public let dataFields: Set<String>

    init(_ attributes: [AttributeSpec]) {
        self.attributes = attributes
        dataFields = Set(attributes.filter(\.travelsWithData).map(\.code))
        var index: [String: AttributeSpec] = [:]
        for attribute in attributes where index[attribute.code] == nil {
            index[attribute.code] = attribute
        }
        self.index = index
    }

    /// The attribute with this code, if the class has it.
    public subscript(code: String) -> AttributeSpec? {
        index[code]
    }

    /// The primary-key attributes, in schema order.
    public var primaryKey: [AttributeSpec] {
        attributes.filter(\.isPrimaryKey)
    }

    /// Attributes every class has: group, protection, sync state, dates.
    static let common: [AttributeSpec] = [
        AttributeSpec("agrp", .string, primaryKey: true),
        AttributeSpec("pdmn", .accessibility),
        AttributeSpec("accc", .accessControl),
        AttributeSpec("sync", .synchronizable, primaryKey: true),
        AttributeSpec("cdat", .date),
        AttributeSpec("mdat", .date),
        AttributeSpec("labl", .blob),
        AttributeSpec("alis", .blob),
    ]

    /// Attributes the two password classes share.
    static let password: [AttributeSpec] = [
        AttributeSpec("acct", .blob, primaryKey: true),
        AttributeSpec("desc", .string),
        AttributeSpec("icmt", .string),
        AttributeSpec("crtr", .number),
        AttributeSpec("type", .number),
        AttributeSpec("scrp", .number),
        AttributeSpec("invi", .number),
        AttributeSpec("nega", .number),
        AttributeSpec("cusi", .number),
        AttributeSpec("prot", .blob),
    ]

    public static let genericPassword = ClassSchema(
        password + [AttributeSpec("svce", .blob, primaryKey: true), AttributeSpec("gena", .blob)] + common
    )

    public static let internetPassword = ClassSchema(
        password + [
            AttributeSpec("sdmn", .blob, primaryKey: true),
            AttributeSpec("srvr", .blob, primaryKey: true),
            AttributeSpec("ptcl", .number, primaryKey: true),
            AttributeSpec("atyp", .blob, primaryKey: true),
            AttributeSpec("port", .number, primaryKey: true),
            AttributeSpec("path", .blob, primaryKey: true),
        ] + common + inetExtraData
    )

    /// `kSecDataInetExtraNotes`, `…History` and `…ClientDefined0`–`3` (SecItemPriv.h): more secret
    /// data beside the password, returned only with `kSecReturnData` (ATEST `testInetBinaryFields`).
    static let inetExtraData: [AttributeSpec] = ["binn", "bini", "bin0", "bin1", "bin2", "bin3"].map {
        AttributeSpec($0, .blob, travelsWithData: true)
    }

    public static let certificate = ClassSchema(
        [
            AttributeSpec("ctyp", .number, primaryKey: true),
            AttributeSpec("cenc", .number),
            AttributeSpec("subj", .blob),
            AttributeSpec("issr", .blob, primaryKey: true),
            AttributeSpec("slnr", .blob, primaryKey: true),
            AttributeSpec("skid", .blob),
            AttributeSpec("pkhh", .blob),
        ] + common
    )

    static let keyOnly: [AttributeSpec] =
        [
            AttributeSpec("kcls", .number, primaryKey: true),
            AttributeSpec("perm", .number),
            AttributeSpec("priv", .number),
            AttributeSpec("modi", .number),
            AttributeSpec("klbl", .blob, primaryKey: true),
            AttributeSpec("atag", .blob, primaryKey: true),
            AttributeSpec("crtr", .number, primaryKey: true),
            AttributeSpec("type", .number, primaryKey: true),
            AttributeSpec("bsiz", .number, primaryKey: true),
            AttributeSpec("esiz", .number, primaryKey: true),
            AttributeSpec("sdat", .date, primaryKey: true),
            AttributeSpec("edat", .date, primaryKey: true),
        ]
        + ["sens", "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp"].map { AttributeSpec($0, .number) }

    public static let key = ClassSchema(keyOnly + common)

    /// Identity queries accept any certificate or key attribute (spec §2.2).
    public static let identity = ClassSchema(certificate.attributes + keyOnly)
}
