public import AppIdentity
public import Foundation

/// associationd's API types (see Services/Associations/AssociationAPI/openapi.yaml).
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
        /// Developer Mode and MDM, which decide `?mode=` entries; absent: ``DeviceSettings/standard``.
        public var settings: DeviceSettings?

        public init(platform: Platform, osVersion: OSVersion, profile: Data, codeSignature: Data, settings: DeviceSettings? = nil) {
            self.platform = platform
            self.osVersion = osVersion
            self.profile = profile
            self.codeSignature = codeSignature
            self.settings = settings
        }
    }

    /// What decides a device's `?mode=developer` and `?mode=managed` entries (spec associations.md a.1).
    public struct DeviceSettings: Codable, Hashable, Sendable {
        /// Developer Mode with the "Associated Domains Development" setting on.
        public var developerMode: Bool
        /// The domains an MDM authorised; nil when no MDM manages the device.
        public var managedDomains: [String]?
        /// The MDM's `AssociatedDomainsEnableDirectDownloads`: managed entries skip the CDN.
        public var managedDirectDownloads: Bool

        public init(developerMode: Bool, managedDomains: [String]? = nil, managedDirectDownloads: Bool = false) {
            self.developerMode = developerMode
            self.managedDomains = managedDomains
            self.managedDirectDownloads = managedDirectDownloads
        }

        /// A lab device: a developer's device in Developer Mode, no MDM.
        public static let standard = DeviceSettings(developerMode: true)
    }

    /// The app's associations after the install.
    public struct InstallResponse: Codable, Hashable, Sendable {
        public var appID: AppID
        public var associations: [AssociationRecord]

        public init(appID: AppID, associations: [AssociationRecord]) {
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
