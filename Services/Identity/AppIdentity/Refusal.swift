/// One reason a signature or bundle is not accepted: the rule that decided, and why.
public struct Refusal: Hashable, Sendable, CustomStringConvertible {
    /// The rules a bundle must pass, in the order they are checked.
    public enum Rule: String, Hashable, Sendable, CaseIterable, Codable {
        /// A file of the bundle is missing or cannot be read.
        case bundleLayout = "bundle-layout"
        /// The profile is not a CMS message, or its signature does not match its content.
        case profileSignature = "profile-signature"
        /// The profile's signer does not chain to a trusted root, or is not a profile signer.
        case profileTrust = "profile-trust"
        /// The profile is expired or not yet valid.
        case profileDates = "profile-dates"
        /// A development profile that does not list the device.
        case deviceNotProvisioned = "device-not-provisioned"
        /// No provisioning profile, on a device that installs nothing without one (every iOS device).
        case profileRequired = "profile-required"
        /// The code signature is not a CMS message, or does not match its content.
        case codeSignature = "code-signature"
        /// The code signature's certificate does not chain to a trusted root, or is not a team certificate.
        case codeSignatureTrust = "code-signature-trust"
        /// The code signature's certificate is not one the profile lists, or belongs to another team.
        case signerNotInProfile = "signer-not-in-profile"
        /// An entitlement the profile does not allow.
        case entitlementNotAllowed = "entitlement-not-allowed"
        /// The application identifier is not an allowed prefix plus the bundle ID.
        case applicationIdentifier = "application-identifier"
        /// A file of the bundle changed after signing (executable, Info.plist, profile, entitlements).
        case modifiedAfterSigning = "modified-after-signing"
    }

    /// The rule that decided.
    public let rule: Rule
    /// Why, for people.
    public let detail: String

    /// Makes a refusal.
    public init(_ rule: Rule, _ detail: String) {
        self.rule = rule
        self.detail = detail
    }

    /// `rule: detail`.
    public var description: String { "\(rule.rawValue): \(detail)" }
}

extension Refusal: Codable {
    /// A refusal is written as its description, `rule: detail`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let rule = Rule(rawValue: String(parts[0])) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a refusal: \(text)"))
        }
        self.init(rule, parts[1].trimmingPrefix(" ").description)
    }
}
