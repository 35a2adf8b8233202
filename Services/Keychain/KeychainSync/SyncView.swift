public import KeychainItems
import KeychainTypes

/// A CKKS view: the zone of an iCloud account that one set of synced items travels in. Which
/// view an item belongs to is the Octagon policy's `keyViewMapping` (Apple's Security project,
/// `keychain/TrustedPeersHelper/Policy.swift`, version 21, l.2598-2697): the first rule that
/// matches the item's access group (`agrp`) or view hint (`vwht`) decides. The lab has the views
/// apps' items reach; the views of Apple's own data (chosen by their view hints) are not synced.
public enum SyncView: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Every third-party app's groups: `agrp` matching `^[0-9A-Z]{10}\.` (l.2622-2623).
    case applications = "Applications"
    /// Safari's credit cards: `com.apple.safari.credit-cards` or `vwht=CreditCards` (l.2667-2671).
    case creditCards = "CreditCards"
    /// Passwords and passkeys: `com.apple.cfnetwork`, the password-manager groups and the
    /// WebAuthn group, each with its `-recently-deleted` form, or `vwht=Passwords` (l.2673-2688).
    case passwords = "Passwords"
    /// Everything no earlier rule takes, such as `group.` application groups (l.2696-2697).
    case backstop = "Backstop"

    public var description: String { rawValue }

    /// The Apple groups the Passwords view takes.
    public static let passwordGroups: Set<String> = {
        let groups = [
            "com.apple.cfnetwork", "com.apple.password-manager", "com.apple.webkit.webauthn", "com.apple.password-manager.personal",
            "com.apple.password-manager.generated-passwords",
        ]
        return Set(groups + groups.map { $0 + "-recently-deleted" } + ["com.apple.WebKit.WebAuthn"])
    }()

    /// View hints the policy sends to Apple's own views before any rule on access groups
    /// (l.2599-2620: ApplePay … FindMy, and NotSynced's, which never sync) or after
    /// Applications (SecureObjectSync, WiFi, ProtectedCloudStorage, DevicePairing).
    static let appleViewHints: Set<String> = [
        "ApplePay", "AutoUnlock", "Engram", "Health", "Home", "Manatee", "LimitedPeersAllowed", "ContinuityUnlock", "HomeKit",
        "AppleTV", "MFi", "Mail", "Contacts", "Photos", "Groups", "FindMy",
    ]
    static let laterAppleViewHints: Set<String> = [
        "BackupBagV0", "iCloudIdentity", "WiFi", "AccessoryPairing", "NanoRegistry", "WatchMigration",
    ]

    /// The groups whose synced items "Delete from this device" removes when iCloud Keychain is
    /// turned off, without tombstones (`SecServerDeleteItemsOnSignOut`, `keychain/securityd/
    /// SecItemServer.c` l.3061-3107): Apple's passwords, credit cards and passkeys, each with its
    /// `-recently-deleted` form. Third-party items stay.
    public static let deletedOnSignOut: Set<String> = {
        let groups = [
            "com.apple.safari.credit-cards", "com.apple.cfnetwork", "com.apple.password-manager",
            "com.apple.password-manager.personal", "com.apple.password-manager.generated-passwords", "com.apple.webkit.webauthn",
        ]
        return Set(groups + groups.map { $0 + "-recently-deleted" })
    }()

    /// The view the policy puts an item of `accessGroup` with view hint `viewHint` in, or nil
    /// for Apple's own views, which the lab does not sync.
    public static func view(accessGroup: String, viewHint: String? = nil) -> SyncView? {
        if let viewHint, appleViewHints.contains(viewHint) { return nil }
        if isThirdParty(accessGroup) { return .applications }
        if let viewHint, laterAppleViewHints.contains(viewHint) || viewHint.hasPrefix("PCS-") { return nil }
        if accessGroup == "com.apple.sbd" || accessGroup == "com.apple.security.sos" || accessGroup == "apple" { return nil }
        if accessGroup == "com.apple.safari.credit-cards" || viewHint == "CreditCards" { return .creditCards }
        if passwordGroups.contains(accessGroup) || viewHint == "Passwords" { return .passwords }
        return .backstop
    }

    /// `^[0-9A-Z]{10}\.`: a team or app ID prefix, then a dot.
    static func isThirdParty(_ group: String) -> Bool {
        let bytes = Array(group.utf8.prefix(11))
        guard bytes.count == 11, bytes[10] == UInt8(ascii: ".") else { return false }
        return bytes[..<10].allSatisfy { (48...57).contains($0) || (65...90).contains($0) }
    }
}

/// Which items CKKS syncs (`CKKSKeychainView.m`, `-handleKeychainEventDbConnection:`, l.1972-1978):
/// `sync=1` items whose protection class can move between devices (`ak`, `ck`, `dk`; the
/// ThisDeviceOnly classes are device-bound) and whose group a view takes.
public enum SyncPolicy {
    /// The view `item` syncs in, or nil when it stays on the device.
    public static func view(of item: KeychainItem) -> SyncView? {
        guard item.isSynchronizable, item.accessibility.maySync else { return nil }
        return SyncView.view(accessGroup: item.accessGroup, viewHint: item.attributes["vwht"]?.string)
    }

    /// Class A (`ak`): its key is unavailable while the device is locked, so an incoming change
    /// waits for the unlock (CKKS's incoming queue processes class A only when unlocked).
    public static func waitsForUnlock(_ item: KeychainItem) -> Bool {
        item.accessibility == .whenUnlocked
    }
}
