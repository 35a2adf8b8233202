public import Foundation

/// What a file given as an `.entitlements` file is when it is not one, in a person's words: the
/// mistakes are the profile itself, its property list as `security cms -D` prints it, the
/// target's Info.plist, or JSON given where the target's `.entitlements` goes
/// (`CODE_SIGN_ENTITLEMENTS`).
public enum EntitlementsFileShape {
    /// Why `data` is not an entitlements property list, or nil when it may be one (it is then
    /// read, and a property list that does not read is reported as such).
    public static func problem(_ data: Data) -> String? {
        let head = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard let first = head.first else { return "the file is empty: give the target's .entitlements file" }
        if first == 0x30 {
            return
                "this is a signed profile, not an entitlements file: give it to --profile, and the target's .entitlements file (CODE_SIGN_ENTITLEMENTS) to --entitlements"
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return "this is JSON, not an entitlements property list: give the target's .entitlements file (CODE_SIGN_ENTITLEMENTS)"
        }
        guard let entries = try? PlistValue.dictionary(fromPropertyList: data) else { return nil }
        if entries["Entitlements"] != nil, entries["UUID"] != nil {
            return
                "this is a profile's property list (as security cms -D prints it), not an entitlements file: give the signed profile to --profile, and the target's .entitlements file to --entitlements"
        }
        if entries.keys.contains(where: { $0.hasPrefix("CFBundle") }), !entries.keys.contains(where: ProfileFileShape.isEntitlementKey) {
            return "this is an Info.plist, not an entitlements file: give the target's .entitlements file (CODE_SIGN_ENTITLEMENTS)"
        }
        return nil
    }
}
