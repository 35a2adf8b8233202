public import LabErrors

/// A failure to build a world's trust material: a file that cannot be written, a key that cannot
/// be read, a tool (`openssl`) that fails.
public typealias BuildError = CodedError<BuildErrors>

/// The errors of building a world.
public enum BuildErrors: ErrorDomain {}

extension CodedError.Code where Domain == BuildErrors {
    /// A file or folder cannot be written.
    public static let io = Self("io")
    /// An existing key or certificate in the output folder cannot be read.
    public static let corruptArtifact = Self("corruptArtifact")
    /// A certificate or signature cannot be made.
    public static let signing = Self("signing")
    /// An external tool failed.
    public static let tool = Self("tool")
}
