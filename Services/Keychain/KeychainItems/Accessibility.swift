import KeychainTypes

/// `kSecAttrAccessible`'s protection classes (spec keychain.md §3).
public enum Accessibility: String, Hashable, Sendable, CaseIterable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case always = "dk"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case alwaysThisDeviceOnly = "dku"
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// Class A: data available only while the device is unlocked.
    public var needsUnlock: Bool {
        self == .whenUnlocked || self == .whenUnlockedThisDeviceOnly || self == .whenPasscodeSetThisDeviceOnly
    }

    /// Class C: data available once the device has been unlocked since it started.
    public var needsFirstUnlock: Bool {
        self == .afterFirstUnlock || self == .afterFirstUnlockThisDeviceOnly
    }

    /// Whether an item with this protection may sync to the account's other devices.
    public var maySync: Bool {
        self == .whenUnlocked || self == .afterFirstUnlock || self == .always
    }

    /// Apple's name of the constant (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`), for
    /// messages; the raw value if the table lacks it.
    public var constantName: String {
        SecConstantTable.entries.first { $0.name.hasPrefix("kSecAttrAccessible") && $0.value == rawValue }?.name ?? rawValue
    }
}
