import AppIdentity
import Foundation
public import KeychainTypes
import LabErrors

extension KeychainEngine {
    /// `SecItemAdd` (spec keychain.md §2.3).
    public func add(_ attributes: [String: SecValue], client: ClientContext) async -> SecItemResult {
        // A Mac app's add goes to the file keychain unless it asks for data protection (§5).
        if let file = client.onFileKeychain {
            switch KeychainRoute.of(attributes) {
            case .dataProtection: break
            case .file, .both: return await add(FileKeychain.stripped(attributes), client: file)
            case .neither: return await perform(for: client) { throw KeychainRoute.neitherError(.add) }
            }
        }
        return await perform(for: client) {
            try QueryParser.checkInternalAttributes(attributes)
            guard !client.writableGroups.isEmpty else {
                throw SecItemError(.missingEntitlement, .accessGroup, "SecItemAdd: \(client.caller) has no writable access group")
            }
            var dictionary = attributes
            var access: LegacyAccess? = nil
            if client.device.stripsQueryKeys {
                // macOS's SecItem layer drops match keys from an add. kSecAttrAccess gives a login
                // keychain item its access control list; the layer drops it on the way to the
                // data-protection keychain.
                dictionary = dictionary.filter { !$0.key.hasPrefix("m_") }
                if client.fileSide != nil {
                    access = try FileKeychain.takeAccess(from: &dictionary, call: .add)
                } else {
                    dictionary[LegacyAccess.key] = nil
                }
            }
            var query = try QueryParser.parse(dictionary)
            if query.useKeys["u_ItemList"] != nil {
                throw SecItemError(.param, .queryForm, "SecItemAdd: kSecUseItemList is not supported")
            }
            if query.useKeys["u_AuthUI"]?.string == "u_AuthUIS" {
                throw SecItemError(.param, .queryForm, "SecItemAdd: kSecUseAuthenticationUISkip is only for SecItemCopyMatching")
            }
            if query.hasValueRef {
                throw SecItemError(.param, .queryForm, "SecItemAdd: kSecValueRef cannot be sent to the keychain; pass the item's data")
            }
            if let reference = query.persistentRef, reference.count != 20 {
                throw SecItemError(.param, .queryForm, "SecItemAdd: a legacy or token persistent reference cannot be added")
            }
            if query.itemClass == .identity {
                throw SecItemError(.param, .queryForm, "SecItemAdd: an identity is added as its certificate and its key")
            }
            let group = query.accessGroup ?? client.accessGroups[0].rawValue
            if !client.mayWrite(group) {
                throw SecItemError(
                    .missingEntitlement,
                    .accessGroup,
                    "SecItemAdd: \(client.caller) may not write to access group '\(group)'\(client.prefixHint(group))"
                )
            }
            query.attributes["agrp"] = .string(group)
            let item = try newItem(from: query, client: client, access: access)
            try client.checkAppClipGroups(call: .add)
            try client.checkAppClipSync(query.synchronizable, call: .add)
            try client.checkFileUnlocked(call: .add)
            if !client.device.canDecrypt(item.accessibility) {
                // Encryption comes before the insert, so a locked device says so even for a duplicate (SD01).
                throw SecItemError(
                    .interactionNotAllowed,
                    .deviceLocked,
                    "SecItemAdd: the device is locked; \(item.accessibility.rawValue) items cannot be written"
                )
            }
            let stored = try await store.write { writer in
                var written = item
                // A synced item added where its deleted self left a tombstone takes the tombstone's
                // UUID, as securityd's insert over a tombstone does (SecDbItem.c, SecDbItemInsert):
                // CKKS then sees one record change, the pending delete becoming a modify.
                if written.isSynchronizable, let tombstone = try writer.tombstone(withKeyOf: written) {
                    written.uuid = tombstone.uuid
                }
                do {
                    try writer.insert(written)
                    if written.isSynchronizable { try writer.queueSyncChange(written) }
                } catch let error as StoreError where error.code == .duplicate {
                    throw SecItemError(.duplicateItem, .duplicate, "SecItemAdd: an item with the same primary key exists in '\(group)'")
                }
                return written
            }
            return .success(ResultShape.added(stored, query: query, platform: client.device.platform))
        }
    }

    /// The item an add creates: defaults for protection, sync and primary-key attributes, dates
    /// forced to now; on the file keychain, the access control list `access` makes.
    private func newItem(from query: ParsedQuery, client: ClientContext, access: LegacyAccess?) throws(SecItemError) -> KeychainItem {
        var attributes = query.attributes
        if let control = attributes["accc"]?.dictionaryValue, let protection = control["prot"]?.string {
            if let given = attributes["pdmn"]?.string, given != protection {
                throw SecItemError(.param, .queryForm, "SecItemAdd: conflicting kSecAttrAccessible and kSecAttrAccessControl")
            }
            attributes["pdmn"] = .string(protection)
        }
        if attributes["pdmn"] == nil {
            let group = attributes["agrp"]?.string
            attributes["pdmn"] = .string(group == "com.apple.apsd" ? "dku" : query.itemClass == .certificate ? "dk" : "ak")
        }
        let synchronizable: Bool
        if case .only(true) = query.synchronizable { synchronizable = true } else { synchronizable = false }
        if synchronizable, let control = attributes["accc"]?.dictionaryValue, (control["flags"]?.number ?? 0) != 0 {
            throw SecItemError(.param, .queryForm, "SecItemAdd: an item with kSecAttrAccessControl constraints is not synchronizable")
        }
        try Self.checkSyncProtection(synchronizable: synchronizable, protection: attributes["pdmn"]?.string, call: .add)
        if attributes["pdmn"]?.string == Accessibility.whenPasscodeSetThisDeviceOnly.rawValue, !client.device.hasPasscode {
            throw SecItemError(.authFailed, .passcodeRequired, "SecItemAdd: akpu items need a passcode, and the device has none")
        }
        attributes["sync"] = .integer(synchronizable ? 1 : 0)
        for spec in query.itemClass.schema.primaryKey where attributes[spec.code] == nil {
            attributes[spec.code] = spec.defaultValue
        }
        let date = now()
        attributes["cdat"] = .date(date)
        attributes["mdat"] = .date(date)
        if let side = client.fileSide {
            // The file keychain knows no protection classes: its items open with the keychain.
            attributes["pdmn"] = .string(Accessibility.always.rawValue)
            attributes[FileKeychain.aclKey] = FileKeychain.acl(creator: client.caller.aclName, partition: side.partition, access: access)
        }
        return KeychainItem(
            keychain: client.keychain(synchronizable: synchronizable),
            itemClass: query.itemClass,
            attributes: attributes,
            data: query.valueData
        )
    }
}
