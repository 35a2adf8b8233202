public import LabErrors

/// A failure to read or build identity material: a malformed value, property list or certificate.
///
/// Verification results are not errors: a bundle that fails a rule yields an ``InstallVerdict``
/// carrying its reasons. This error is for input that cannot be read at all.
public typealias IdentityError = CodedError<IdentityErrors>

/// The errors of reading identities: teams, app IDs, entitlements, profiles, signatures.
public enum IdentityErrors: ErrorDomain {}

extension CodedError.Code where Domain == IdentityErrors {
    /// A value that is not of the expected form (a team ID of the wrong length, say).
    public static let malformedValue = Self("malformedValue")
    /// A property list that cannot be read or lacks a required key.
    public static let malformedPropertyList = Self("malformedPropertyList")
    /// A certificate that cannot be read.
    public static let malformedCertificate = Self("malformedCertificate")
    /// A file that cannot be read.
    public static let unreadableFile = Self("unreadableFile")
}
