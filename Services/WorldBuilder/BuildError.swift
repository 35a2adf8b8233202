/// A failure to build a world's trust material: a file that cannot be written, a key that cannot
/// be read, a tool (`openssl`) that fails.
public struct BuildError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; stable strings, safe to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw code.
        public let rawValue: String

        /// A file or folder cannot be written.
        public static let io = Code(rawValue: "io")
        /// An existing key or certificate in the output folder cannot be read.
        public static let corruptArtifact = Code(rawValue: "corruptArtifact")
        /// A certificate or signature cannot be made.
        public static let signing = Code(rawValue: "signing")
        /// An external tool failed.
        public static let tool = Code(rawValue: "tool")

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

    public static func == (lhs: BuildError, rhs: BuildError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
