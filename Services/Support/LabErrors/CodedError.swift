/// The errors of one library: a name for its domain, and how its errors print.
public protocol ErrorDomain: Sendable {
    /// How an error of the domain prints; by default its message alone.
    static func describe(code: String, message: String) -> String
}

extension ErrorDomain {
    public static func describe(code: String, message: String) -> String { message }
}

/// The one error shape of KeychainLab's libraries: a code that is safe to match on, a message for
/// people, and the error that caused it, if any. Each library names its domain and its codes:
///
/// ```swift
/// public enum IdentityErrors: ErrorDomain {}
/// public typealias IdentityError = CodedError<IdentityErrors>
/// extension CodedError.Code where Domain == IdentityErrors {
///     public static let malformedValue = Self("malformedValue")
/// }
/// ```
///
/// Two errors are equal when their codes are: a test matches on the code, never on the words.
public struct CodedError<Domain: ErrorDomain>: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; a stable string.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw code.
        public let rawValue: String

        /// A code of the domain.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// The raw code.
        public var description: String { rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A message for people (never a secret).
    public let message: String
    /// The failure underneath, when another library's error caused this one.
    public let cause: (any Error)?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The domain's textual form (the message, unless the domain says otherwise).
    public var description: String { Domain.describe(code: code.rawValue, message: message) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
