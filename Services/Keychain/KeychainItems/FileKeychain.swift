public import AppIdentity
import KeychainTypes

/// The Mac's file-based keychain (the user's `login.keychain-db`), kept by keychaind per device
/// beside the data-protection keychain (spec keychain.md §5). Access groups, protection classes
/// and synchronization do not apply there; each item carries an access control list instead: the
/// apps trusted to use its secret, and the partitions (`teamid:TEAMID`, `apple:`) allowed.
public enum FileKeychain {
    /// The keychain name of a device's login keychain.
    public static func keychain(device: String) -> String { KeychainName.login(device).rawValue }

    /// The group every file-keychain item is filed under internally; never shown to an app.
    static let group = AccessGroup(unchecked: "$login")
    /// The attribute holding an item's access control list; never shown to an app.
    static let aclKey = "$acl"
    /// What the file keychain drops from a call, as macOS's SecItem layer strips it (§5).
    static let strippedKeys: Set<String> = ["pdmn", "accc", "agrp", "sync", "tomb", "nleg"]

    /// `dictionary` without what the file keychain drops.
    static func stripped(_ dictionary: [String: SecValue]) -> [String: SecValue] {
        dictionary.filter { !strippedKeys.contains($0.key) }
    }

    /// The partition of a client signed by `team`: `apple:` for Apple's platform apps,
    /// `apple-tool:` for Apple's command-line tools (no application identifier), `teamid:TEAMID`
    /// for everyone else.
    public static func partition(of team: TeamID, claimsApplicationIdentifier: Bool = true) -> String {
        guard team == .platform else { return "teamid:\(team)" }
        return claimsApplicationIdentifier ? "apple:" : "apple-tool:"
    }

    /// The access control list of a new item: the apps its `kSecAttrAccess` trusts, with its
    /// descriptor as the item's name in prompts, else its creator alone; its creator's partition
    /// allowed either way (securityd adds it when the item lands).
    static func acl(creator: String, partition: String, access: LegacyAccess? = nil) -> SecValue {
        var acl: [String: SecValue] = ["trusted": trustedList(access, caller: creator), "partitions": .array([.string(partition)])]
        if let access { acl["description"] = .string(access.descriptor) }
        return .dictionary(acl)
    }

    /// `item` with the apps `access` trusts in place of its list (SecItemUpdate with
    /// `kSecAttrAccess`, as SecKeychainItemSetAccess does); `caller` is the app that changes it.
    static func replacingAccess(of item: KeychainItem, with access: LegacyAccess, caller: String) -> KeychainItem {
        var acl = item.attributes[aclKey]?.dictionaryValue ?? [:]
        acl["trusted"] = trustedList(access, caller: caller)
        acl["description"] = .string(access.descriptor)
        var changed = item
        changed.attributes[aclKey] = .dictionary(acl)
        return changed
    }

    /// The names on the list `access` makes: the calling app by its ``Caller/aclName``, other
    /// programs by their paths (which name no lab app); `nil` access, the caller alone.
    private static func trustedList(_ access: LegacyAccess?, caller: String) -> SecValue {
        guard let applications = access?.trustedApplications else { return .array([.string(caller)]) }
        var names: [String] = []
        for application in applications {
            let name: String
            switch application {
            case .caller: name = caller
            case .path(let path): name = path
            }
            if !names.contains(name) { names.append(name) }
        }
        return .array(names.map(SecValue.string))
    }

    /// The `kSecAttrAccess` of a call to the file keychain, removed from `dictionary`; a value that
    /// is no SecAccess is errSecParam, as macOS checks its type.
    static func takeAccess(from dictionary: inout [String: SecValue], call: SecItemCall) throws(SecItemError) -> LegacyAccess? {
        guard let value = dictionary.removeValue(forKey: LegacyAccess.key) else { return nil }
        guard let access = LegacyAccess(value) else {
            throw SecItemError(.param, .attribute, "\(call): kSecAttrAccess must be a SecAccess (SecAccessCreate)")
        }
        return access
    }

    /// Whether an item's list lets `caller` (``Caller/aclName``) of `partition` use its secret
    /// without asking the user.
    static func trusts(_ item: KeychainItem, caller: String, partition: String) -> Bool {
        trustedApps(of: item).contains(caller) && allows(item, partition: partition)
    }

    /// Whether an item's partition list holds `partition`; when it does not, allowing the app
    /// takes the keychain password (macOS 10.12 and later).
    static func allows(_ item: KeychainItem, partition: String) -> Bool {
        partitions(of: item).contains(partition)
    }

    /// The apps an item's access control list trusts.
    static func trustedApps(of item: KeychainItem) -> [String] {
        item.attributes[aclKey]?.dictionaryValue?["trusted"]?.array?.compactMap(\.string) ?? []
    }

    /// The partitions an item's access control list allows.
    static func partitions(of item: KeychainItem) -> [String] {
        item.attributes[aclKey]?.dictionaryValue?["partitions"]?.array?.compactMap(\.string) ?? []
    }

    /// The name a prompt shows for an item: the descriptor its access was made with, else its
    /// label, else its service or server.
    static func name(of item: KeychainItem) -> String {
        if case .string(let descriptor)? = item.attributes[aclKey]?.dictionaryValue?["description"] { return descriptor }
        let attribute = item.attributes["labl"] ?? item.attributes["svce"] ?? item.attributes["srvr"]
        switch attribute {
        case .string(let text)?: return text
        case .data(let bytes)?: return String(decoding: bytes, as: UTF8.self)
        default: return "an item"
        }
    }

    /// `item` with `caller` of `partition` on its access control list ("Always Allow").
    static func trusting(_ item: KeychainItem, caller: String, partition: String) -> KeychainItem {
        var acl = item.attributes[aclKey]?.dictionaryValue ?? [:]
        var trusted = acl["trusted"]?.array ?? []
        var partitions = acl["partitions"]?.array ?? []
        if !trusted.contains(.string(caller)) { trusted.append(.string(caller)) }
        if !partitions.contains(.string(partition)) { partitions.append(.string(partition)) }
        acl["trusted"] = .array(trusted)
        acl["partitions"] = .array(partitions)
        var changed = item
        changed.attributes[aclKey] = .dictionary(acl)
        return changed
    }

    /// Whether `item` lives in a file keychain.
    public static func holds(_ item: KeychainItem) -> Bool {
        if case .login? = KeychainName(rawValue: item.keychain) { return true }
        return false
    }

    /// The attributes an app sees of a file-keychain item: none of the data-protection ones.
    static func visibleAttributes(_ attributes: [String: SecValue]) -> [String: SecValue] {
        attributes.filter { !strippedKeys.contains($0.key) && $0.key != aclKey }
    }
}

/// A macOS app's way to its device's file keychain: the keychain, the app's partition, and
/// whether the keychain is locked now.
public struct FileKeychainAccess: Hashable, Sendable {
    public let keychain: String
    public let partition: String
    public let isLocked: Bool

    public init(keychain: String, partition: String, isLocked: Bool = false) {
        self.keychain = keychain
        self.partition = partition
        self.isLocked = isLocked
    }
}

/// Which keychain a macOS app's call goes to (src OSX `SecItemCategorizeQuery`, spec §5).
enum KeychainRoute: Equatable {
    case dataProtection, file, both
    /// Neither can take it: a key only the file keychain knows (`kSecAttrAccess`) with one only the
    /// data-protection keychain knows. macOS answers errSecParam.
    case neither

    /// Keys only the file keychain knows. macOS has more (kSecMatchSearchList, kSecUseKeychain, …);
    /// the lab has no other keychain for them to name.
    static let fileOnlyKeys: Set<String> = [LegacyAccess.key]

    static func of(_ dictionary: [String: SecValue]) -> KeychainRoute {
        if let flag = dictionary["nleg"] {
            return isTruthy(flag) ? .dataProtection : .file
        }
        let fileOnly = dictionary.keys.contains(where: fileOnlyKeys.contains)
        if let sync = dictionary["sync"], isTruthy(sync) { return fileOnly ? .neither : .dataProtection }
        if dictionary["accc"] != nil || dictionary["tkid"] != nil || dictionary["agrp"]?.string == "com.apple.token" {
            return fileOnly ? .neither : .dataProtection
        }
        if fileOnly || (dictionary["class"] == nil && dictionary["v_PersistentRef"] == nil && dictionary["v_Ref"] == nil) {
            return .file
        }
        return .both
    }

    /// The refusal of a call no keychain can take.
    static func neitherError(_ call: SecItemCall) -> SecItemError {
        SecItemError(
            .param,
            .queryForm,
            "\(call): kSecAttrAccess is the login keychain's and cannot go with kSecAttrSynchronizable, kSecAttrAccessControl, "
                + "kSecAttrTokenID or com.apple.token, which are the data-protection keychain's"
        )
    }

    /// A CFBoolean or CFNumber that reads as true; `kSecAttrSynchronizableAny` is not.
    private static func isTruthy(_ value: SecValue) -> Bool {
        switch value {
        case .bool(let flag): flag
        default: (value.number ?? 0) != 0
        }
    }

    /// The answer of a call that ran on both keychains: the data-protection side's when it
    /// succeeded (arrays joined, data-protection items first), else the file side's (src OSX
    /// `SecItemMergeResults`; a data-protection errSecMissingEntitlement is thereby ignored).
    static func merged(dataProtection: SecItemResult, file: SecItemResult) -> SecItemResult {
        guard dataProtection.status == .success else { return file }
        if file.status == .success, case .array(let first)? = dataProtection.result, case .array(let second)? = file.result {
            return .success(.array(first + second))
        }
        return dataProtection
    }
}

extension SecValue {
    /// The elements, when this is an array.
    var array: [SecValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
