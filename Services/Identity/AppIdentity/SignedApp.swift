public import Foundation

/// The signed parts of an app: what a device sends a service so that the service can work out the
/// app's identity for itself, from signatures rather than claims.
public struct SignedApp: Hashable, Sendable, Codable {
    /// `embedded.mobileprovision`: a CMS-signed profile, DER.
    public var profile: Data
    /// `_CodeSignature/CodeSignature`: a CMS-signed code directory, DER.
    public var codeSignature: Data

    /// Wraps the two signed files.
    public init(profile: Data, codeSignature: Data) {
        self.profile = profile
        self.codeSignature = codeSignature
    }
}
