import Foundation

/// What a file given as a provisioning profile is when it is not one, in a person's words: the
/// mistakes are an `.entitlements` file, the profile's property list without its envelope, JSON
/// or a PEM file given where the `.mobileprovision` goes.
enum ProfileFileShape {
    /// The message for `data`, which did not open as a CMS message.
    static func notAProfile(_ data: Data) -> String {
        let head = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard let first = head.first else { return "the file is empty: give the .mobileprovision or .provisionprofile" }
        if head.starts(with: Data("bplist".utf8)) || head.starts(with: Data("<?xml".utf8)) || head.starts(with: Data("<plist".utf8)) {
            return propertyList(data)
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return
                "this is JSON, not a signed profile: give the .mobileprovision or .provisionprofile (an apple-app-site-association file is checked with kclab aasa check)"
        }
        if head.starts(with: Data("-----BEGIN".utf8)) {
            return "this is a PEM file (a certificate or a key), not a signed profile: give the .mobileprovision or .provisionprofile"
        }
        return
            "this is not a signed profile (not a CMS message): give the .mobileprovision or .provisionprofile that the developer portal or Xcode made"
    }

    private static func propertyList(_ data: Data) -> String {
        guard let entries = try? PlistValue.dictionary(fromPropertyList: data) else {
            return "this is a property list that does not read, not a signed profile: give the .mobileprovision or .provisionprofile"
        }
        if entries["Entitlements"] != nil, entries["UUID"] != nil {
            return
                "this is a profile's property list without Apple's signature (as security cms -D prints it): give the signed .mobileprovision as downloaded"
        }
        if entries.keys.contains(where: isEntitlementKey) {
            return
                "this is an entitlements property list, not a signed profile: give the .mobileprovision (and the .entitlements file to kclab lint --entitlements)"
        }
        return "this is a property list, not a signed profile: give the .mobileprovision or .provisionprofile"
    }

    static func isEntitlementKey(_ key: String) -> Bool {
        key.hasPrefix("com.apple.") || key == EntitlementKey.keychainAccessGroups || key == EntitlementKey.applicationIdentifier
            || key == EntitlementKey.getTaskAllow || key == "aps-environment"
    }
}
