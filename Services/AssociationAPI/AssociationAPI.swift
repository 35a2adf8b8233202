public import AppIdentity
public import Foundation

/// associationd's API types (see Services/AssociationAPI/openapi.yaml).
public enum AssociationAPI {
    /// associationd's JSON, in its API, its store and kclab's output: sorted keys, ISO 8601 dates.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// Reads what ``encoder()`` writes.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A device installed an app: its OS, and the app's signed files, which associationd verifies
    /// itself before reading the associated-domains entitlement.
    public struct InstallRequest: Codable, Hashable, Sendable {
        public var platform: Platform
        public var osVersion: OSVersion
        /// `embedded.mobileprovision`, DER (base64 in JSON).
        public var profile: Data
        /// `_CodeSignature/CodeSignature`, DER (base64 in JSON).
        public var codeSignature: Data

        public init(platform: Platform, osVersion: OSVersion, profile: Data, codeSignature: Data) {
            self.platform = platform
            self.osVersion = osVersion
            self.profile = profile
            self.codeSignature = codeSignature
        }
    }

    /// The app's associations after the install.
    public struct InstallResponse: Codable, Hashable, Sendable {
        public var appID: String
        public var associations: [AssociationRecord]

        public init(appID: String, associations: [AssociationRecord]) {
            self.appID = appID
            self.associations = associations
        }
    }

    /// Whether an app may use a host for a service, and the record that says so.
    public struct Answer: Codable, Hashable, Sendable {
        public var associated: Bool
        public var record: AssociationRecord?

        public init(associated: Bool, record: AssociationRecord?) {
            self.associated = associated
            self.record = record
        }
    }
}
