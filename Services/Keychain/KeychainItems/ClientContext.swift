public import AppIdentity
public import KeychainTypes

/// Who is calling and on what device: what every SecItem call is decided against.
public struct ClientContext: Hashable, Sendable {
    /// Who calls: an app (its application identifier) or one of the lab's own services.
    public let caller: Caller
    /// The caller's access groups, in order, as securityd holds them (token handling applied).
    public private(set) var accessGroups: [AccessGroup]
    /// The device's platform and version: where Apple's behaviour changed, they decide.
    public let device: DeviceState
    /// The keychain of the device: its local items and its copies of the iCloud account's
    /// synchronizable items, told apart by `sync`, which is part of every primary key.
    public private(set) var deviceKeychain: String
    /// Whether the caller is an App Clip (`com.apple.developer.on-demand-install-capable`).
    public private(set) var isAppClip: Bool
    /// Whether the caller is entitled `com.apple.private.keychain.deny`: no keychain at all.
    public let isDenied: Bool
    /// Whether the caller is an eligible platform binary, which alone may hold `*` (§1.6).
    public private(set) var mayHoldWildcard: Bool
    /// For a macOS app on a Mac: its device's file keychain, where its calls may be routed (§5).
    public private(set) var fileKeychain: FileKeychainAccess?
    /// Set on the context a call routed to the file keychain runs with: the keychain and partition.
    private(set) var fileSide: FileKeychainAccess?
    /// What the device's user answered for this call, when it asked (login keychain only).
    public private(set) var userApproval: UserApproval?

    /// A context for an app whose verified entitlements gave `entitledGroups` (Apple's order);
    /// `claimsApplicationIdentifier` tells a Mac tool without one from an app whose identifier a
    /// missing profile voided (spec keychain.md §1.1 step 4).
    public init(
        caller: Caller,
        entitledGroups: [AccessGroup],
        device: DeviceState,
        deviceKeychain: String,
        isAppClip: Bool = false,
        isDenied: Bool = false,
        mayHoldWildcard: Bool = false,
        claimsApplicationIdentifier: Bool = true,
        fileKeychain: FileKeychainAccess? = nil,
        userApproval: UserApproval? = nil
    ) {
        self.caller = caller
        self.accessGroups = device.platform.heldAccessGroups(
            entitledGroups,
            hasApplicationIdentifier: claimsApplicationIdentifier
        )
        self.device = device
        self.deviceKeychain = deviceKeychain
        self.isAppClip = isAppClip
        self.isDenied = isDenied
        self.mayHoldWildcard = mayHoldWildcard
        self.fileKeychain = fileKeychain
        self.userApproval = userApproval
    }

    /// The context of the same caller on the file keychain.
    var onFileKeychain: ClientContext? {
        guard let access = fileKeychain else { return nil }
        var file = self
        file.accessGroups = [FileKeychain.group]
        file.deviceKeychain = access.keychain
        file.isAppClip = false
        file.mayHoldWildcard = false
        file.fileKeychain = nil
        file.fileSide = access
        return file
    }

    /// The same caller with no file keychain: its calls stay on the data-protection keychain.
    var onDataProtectionKeychain: ClientContext {
        var dataProtection = self
        dataProtection.fileKeychain = nil
        dataProtection.userApproval = nil
        return dataProtection
    }

    /// `item` with this caller on its access control list.
    func trusting(_ item: KeychainItem) -> KeychainItem {
        guard let side = fileSide else { return item }
        return FileKeychain.trusting(item, caller: caller.aclName, partition: side.partition)
    }

    /// On the file keychain, an app not on an item's access control list (or of another partition)
    /// may use the item's secret only once the device's user allows it: without an answer the call
    /// is errSecInteractionNotAllowed naming the item, for the device to ask (and, for a call that
    /// may not ask, as macOS answers it). Returns the items "Always Allow" must now trust.
    func checkFileTrust(_ items: [KeychainItem], call: SecItemCall) throws(SecItemError) -> [KeychainItem] {
        guard let side = fileSide else { return [] }
        let untrusted = items.filter { !FileKeychain.trusts($0, caller: caller.aclName, partition: side.partition) }
        guard let item = untrusted.first else { return [] }
        switch userApproval {
        case .once?: return []
        case .always?: return untrusted
        case nil:
            let name = FileKeychain.name(of: item)
            let needsPassword = untrusted.contains { !FileKeychain.allows($0, partition: side.partition) }
            let how = needsPassword ? ", with the keychain password (its partition \(side.partition) is not on the list)" : ""
            throw SecItemError(
                .interactionNotAllowed,
                .loginKeychainAccess,
                "\(call): \(caller) is not on the access control list of “\(name)” in the login keychain; the user must allow it\(how)",
                confirmation: .allowUse(item: name, needsPassword: needsPassword)
            )
        }
    }

    /// A locked login keychain opens only with the user's password: a call that must open it (an
    /// add, the use of a secret, an update or a delete of items found) is errSecInteractionNotAllowed
    /// naming the keychain, for the device to ask its user to unlock it (and, for a call that may
    /// not ask, as macOS answers it). Finding items by their attributes needs no unlock.
    func checkFileUnlocked(call: SecItemCall) throws(SecItemError) {
        guard let side = fileSide, side.isLocked else { return }
        throw SecItemError(
            .interactionNotAllowed,
            .loginKeychainLocked,
            "\(call): the login keychain is locked; the user must unlock it with their password",
            confirmation: .unlock(keychain: "login")
        )
    }

    /// Whether the caller holds `*`: every group, with no group condition on what it reads.
    public var holdsWildcard: Bool {
        accessGroups.contains { $0.rawValue == WildcardAccessGroup.name }
    }

    /// securityd refuses a client holding `*` that is not an eligible platform binary before it
    /// executes anything. Apple's securityd then sends an empty reply, whose status the caller sees
    /// is unconfirmed; the lab answers errSecMissingEntitlement (-34018) with the reason.
    func checkWildcard() throws(SecItemError) {
        guard holdsWildcard, !mayHoldWildcard else { return }
        throw SecItemError(
            .missingEntitlement,
            .accessGroup,
            "securityd: \(caller) holds the access group '*', which securityd honours only for Apple's platform binaries on its allow-list"
        )
    }

    /// An App Clip may hold only its own application identifier as access group, with the token
    /// group beside it at most; otherwise every call is errSecRestrictedAPI (-34020) (spec
    /// keychain.md §1.7, src `appClipHasAcceptableAccessGroups`, test CTEST).
    func checkAppClipGroups(call: SecItemCall) throws(SecItemError) {
        let own = caller.appID.flatMap { try? AccessGroup($0.rawValue) }
        guard isAppClip, accessGroups != own.map({ [$0] }), accessGroups != own.map({ [$0, .token] }) else { return }
        throw SecItemError(.restrictedAPI, .appClip, "\(call): an App Clip may use no access group but its application identifier")
    }

    /// An App Clip's items never synchronize: adding or updating one to `sync = 1` is -34020.
    func checkAppClipSync(_ synchronizable: ParsedQuery.Synchronizable, call: SecItemCall) throws(SecItemError) {
        guard isAppClip, case .only(true) = synchronizable else { return }
        throw SecItemError(.restrictedAPI, .appClip, "\(call): an App Clip's items cannot be synchronizable")
    }

    /// For a refused group: the caller's own group that names it with its team prefix, the usual
    /// mistake ("did you mean ABCDE12345.com.example.Shared?"); empty when there is none.
    public func prefixHint(_ group: String) -> String {
        // A prefix is ten characters and a dot.
        let names = accessGroups.map(\.rawValue)
        guard let held = names.first(where: { $0.count == group.count + 11 && $0.hasSuffix("." + group) }) else { return "" }
        return "; did you mean '\(held)', which it holds? (the team prefix: $(AppIdentifierPrefix) in the entitlements)"
    }

    /// The groups a write may target: every group but the read-only token group (§1.7).
    public var writableGroups: [AccessGroup] {
        accessGroups.filter { $0 != .token }
    }

    /// Whether `group` is in the list (exact, case-sensitive: §1.3).
    public func mayRead(_ group: String) -> Bool {
        holdsWildcard || accessGroups.contains { $0.rawValue == group }
    }

    /// Whether `group` is writable.
    public func mayWrite(_ group: String) -> Bool {
        holdsWildcard || writableGroups.contains { $0.rawValue == group }
    }

    /// The keychains a query reads: the device's own, whatever its sync condition (only the local
    /// keychain is read; the cloud's changes are invisible until the device applies them).
    func keychains(for synchronizable: ParsedQuery.Synchronizable) -> [String] {
        [deviceKeychain]
    }

    /// The keychain an item with this sync state lives in: the device's, synchronizable or not
    /// (each device keeps its own copy of the account's synced items).
    func keychain(synchronizable: Bool) -> String {
        deviceKeychain
    }
}

/// The state of the device a call comes from.
public struct DeviceState: Hashable, Sendable, Codable {
    /// iOS or macOS.
    public var platform: Platform
    /// The OS version.
    public var osVersion: OSVersion
    /// Whether a passcode is set.
    public var hasPasscode: Bool
    /// Whether the device is locked now.
    public var isLocked: Bool
    /// Whether it has been unlocked since it started.
    public var unlockedSinceBoot: Bool

    /// A device state; unlocked and unlocked since boot by default.
    public init(platform: Platform, osVersion: OSVersion, hasPasscode: Bool = true, isLocked: Bool = false, unlockedSinceBoot: Bool = true) {
        self.platform = platform
        self.osVersion = osVersion
        self.hasPasscode = hasPasscode
        self.isLocked = isLocked
        self.unlockedSinceBoot = unlockedSinceBoot
    }

    /// Whether naming a group the caller does not belong to is refused with
    /// `errSecMissingEntitlement` (-34018). Security-59306 (iOS 13, macOS 10.15) and later do;
    /// before, the group was merely ANDed with the caller's and nothing matched (-25300), as
    /// seed 000 still documents (spec keychain.md §2.4 step 4).
    public var refusesForeignGroups: Bool {
        switch platform {
        case .ios: osVersion >= OSVersion(13)
        case .macos: osVersion >= OSVersion(10, 15)
        }
    }

    /// Whether the SecItem layer strips match, return and data keys from Update and Delete
    /// queries and match keys from Add, as macOS's does (spec §5).
    public var stripsQueryKeys: Bool {
        platform == .macos
    }

    /// Whether an item of this protection class can be decrypted now (spec §3).
    public func canDecrypt(_ accessibility: Accessibility) -> Bool {
        if accessibility.needsUnlock { return !isLocked }
        if accessibility.needsFirstUnlock { return unlockedSinceBoot }
        return true
    }
}
