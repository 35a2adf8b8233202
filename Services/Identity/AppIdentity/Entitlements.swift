public import Foundation

/// An app's entitlements: the property-list dictionary its code signature carries.
public struct Entitlements: Hashable, Sendable, Codable {
    /// Every entitlement, by key.
    public var values: [String: PlistValue]

    /// Wraps a dictionary of entitlements.
    public init(_ values: [String: PlistValue] = [:]) {
        self.values = values
    }

    /// Reads an entitlements property list (an `.entitlements` or `.xcent` file).
    public init(propertyList data: Data) throws(IdentityError) {
        values = try PlistValue.dictionary(fromPropertyList: data)
    }

    /// The entitlements as an XML property list, keys sorted.
    public var propertyList: Data {
        PlistValue.xmlPropertyList(values)
    }

    /// The value of one entitlement.
    public subscript(key: String) -> PlistValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// `keychain-access-groups`, or `nil` when absent or when it is not an array of strings
    /// (securityd then ignores the whole entitlement; spec keychain.md §1.1).
    public var keychainAccessGroups: [String]? {
        values[EntitlementKey.keychainAccessGroups]?.strings
    }

    /// `application-identifier`, else `com.apple.application-identifier`; a non-string value is ignored.
    public var applicationIdentifier: String? {
        values[EntitlementKey.applicationIdentifier]?.string
            ?? values[EntitlementKey.macApplicationIdentifier]?.string
    }

    /// `com.apple.developer.associated-application-identifier`, when an array of strings.
    public var associatedApplicationIdentifiers: [String]? {
        values[EntitlementKey.associatedApplicationIdentifier]?.strings
    }

    /// `com.apple.security.application-groups`, when an array of strings.
    public var applicationGroups: [String]? {
        values[EntitlementKey.applicationGroups]?.strings
    }

    /// `com.apple.developer.associated-domains` entries, empty when absent.
    public var associatedDomains: [String] {
        values[EntitlementKey.associatedDomains]?.strings ?? []
    }

    /// `com.apple.developer.team-identifier`.
    public var teamIdentifier: String? {
        values[EntitlementKey.teamIdentifier]?.string
    }

    /// `get-task-allow`: whether the app may be run under a debugger (or `kclab app exec`).
    public var getTaskAllow: Bool {
        values[EntitlementKey.getTaskAllow]?.bool ?? false
    }

    /// Whether the app is an App Clip.
    public var isAppClip: Bool {
        values[EntitlementKey.onDemandInstallCapable]?.bool ?? false
    }

    /// Whether the process is denied the keychain (`com.apple.private.keychain.deny` = true).
    public var isDeniedKeychain: Bool {
        values[EntitlementKey.keychainDeny]?.bool ?? false
    }
}
