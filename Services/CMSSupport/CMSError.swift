/// A failure of the CMS layer: malformed input, or an OpenSSL call that did not succeed.
///
/// Equal on the code only, like swift-certificates' errors, so tests can compare codes.
public struct CMSError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; stable strings, safe to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw code.
        public let rawValue: String

        /// A PEM or DER certificate could not be read.
        public static let malformedCertificate = Code(rawValue: "malformedCertificate")
        /// A PEM private key could not be read.
        public static let malformedPrivateKey = Code(rawValue: "malformedPrivateKey")
        /// The bytes are not a DER CMS SignedData message.
        public static let malformedMessage = Code(rawValue: "malformedMessage")
        /// The message carries no content (a detached signature).
        public static let missingContent = Code(rawValue: "missingContent")
        /// The signature does not match the content, or the signer is missing.
        public static let badSignature = Code(rawValue: "badSignature")
        /// OpenSSL refused to sign.
        public static let signingFailed = Code(rawValue: "signingFailed")

        /// A textual form of the code.
        public var description: String { rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A message for people, with OpenSSL's own reason where it gave one.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A textual form: the message.
    public var description: String { message }

    public static func == (lhs: CMSError, rhs: CMSError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
