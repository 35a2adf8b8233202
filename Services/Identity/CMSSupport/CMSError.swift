public import LabErrors

/// A failure of the CMS layer: malformed input, or an OpenSSL call that did not succeed.
///
/// Equal on the code only, like swift-certificates' errors, so tests can compare codes.
public typealias CMSError = CodedError<CMSErrors>

/// The errors of CMS signing and verification.
public enum CMSErrors: ErrorDomain {}

extension CodedError.Code where Domain == CMSErrors {
    /// A PEM or DER certificate could not be read.
    public static let malformedCertificate = Self("malformedCertificate")
    /// A PEM private key could not be read.
    public static let malformedPrivateKey = Self("malformedPrivateKey")
    /// The bytes are not a DER CMS SignedData message.
    public static let malformedMessage = Self("malformedMessage")
    /// The message carries no content (a detached signature).
    public static let missingContent = Self("missingContent")
    /// The signature does not match the content, or the signer is missing.
    public static let badSignature = Self("badSignature")
    /// OpenSSL refused to sign.
    public static let signingFailed = Self("signingFailed")
}
