public import LabErrors

/// An identifier that is a checked piece of text (a team ID, a bundle ID, an app ID, an access
/// group, an App ID pattern): made only through its check, printed, compared and coded as the
/// text itself, so that JSON and YAML carry `"ABCDE12345.com.example.AppOne"`, never an object.
public protocol IdentifierText: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The text.
    var rawValue: String { get }
    /// The identifier `rawValue` names, or why it names none.
    init(_ rawValue: String) throws(IdentityError)
}

extension IdentifierText {
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        try self.init(value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension IdentifierText where Self: Comparable {
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
