/// A failure to read or build identity material: a malformed value, property list or certificate.
///
/// Verification results are not errors: a bundle that fails a rule yields an ``InstallVerdict``
/// carrying its reasons. This error is for input that cannot be read at all.
public struct IdentityError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; stable strings, safe to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw code.
        public let rawValue: String

        /// A value that is not of the expected form (a team ID of the wrong length, say).
        public static let malformedValue = Code(rawValue: "malformedValue")
        /// A property list that cannot be read or lacks a required key.
        public static let malformedPropertyList = Code(rawValue: "malformedPropertyList")
        /// A certificate that cannot be read.
        public static let malformedCertificate = Code(rawValue: "malformedCertificate")
        /// A file that cannot be read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")

        /// A textual form of the code.
        public var description: String { rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A message for people.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A textual form: the message.
    public var description: String { message }

    public static func == (lhs: IdentityError, rhs: IdentityError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
