/// `kSecAttrAccessible`, typed.
public enum KeychainAccessibility: String, Sendable, CaseIterable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case whenPasscodeSetThisDeviceOnly = "akpu"
}
