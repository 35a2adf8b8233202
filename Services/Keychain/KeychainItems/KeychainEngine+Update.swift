import Foundation
public import KeychainTypes
import LabErrors

extension KeychainEngine {
    /// `SecItemUpdate` (spec keychain.md §2.5): every matching item in the caller's writable groups
    /// is changed in one transaction, or none is.
    public func update(_ query: [String: SecValue], attributesToUpdate: [String: SecValue], client: ClientContext) async -> SecItemResult {
        let routedAnswer = await routed(query, client: client, function: .update) { query, side in
            let changes = side.fileSide == nil ? attributesToUpdate : FileKeychain.stripped(attributesToUpdate)
            return await update(query, attributesToUpdate: changes, client: side)
        }
        if let answer = routedAnswer {
            return answer
        }
        return await perform(for: client) {
            try QueryParser.checkInternalAttributes(query)
            try QueryParser.checkInternalAttributes(attributesToUpdate)
            guard !client.writableGroups.isEmpty else {
                throw SecItemError(.missingEntitlement, .accessGroup, "SecItemUpdate: \(client.caller) has no writable access group")
            }
            try checkExplicitGroup(query["agrp"]?.string, allowed: client.mayWrite, client: client, call: .update)
            var dictionary = query
            if client.device.stripsQueryKeys {
                dictionary = dictionary.filter {
                    !$0.key.hasPrefix("m_") && !$0.key.hasPrefix("r_") && $0.key != "v_Data" && $0.key != LegacyAccess.key
                }
            }
            let parsed = try QueryParser.parse(dictionary)
            try client.checkAppClipGroups(call: .update)
            if parsed.returnsAnything || parsed.returnData || dictionary.keys.contains(where: { $0.hasPrefix("r_") }) {
                throw SecItemError(.param, .queryForm, "SecItemUpdate: kSecReturn keys are not allowed in the query")
            }
            if let group = attributesToUpdate["agrp"]?.string, !client.mayWrite(group) {
                if client.device.refusesForeignGroups {
                    throw SecItemError(
                        .missingEntitlement,
                        .accessGroup,
                        "SecItemUpdate: \(client.caller) may not move items to access group '\(group)'"
                    )
                }
                throw SecItemError(.noAccessForItem, .accessGroup, "SecItemUpdate: \(client.caller) may not move items to access group '\(group)'")
            }
            if !parsed.matchKeys.isEmpty {
                throw SecItemError(.param, .queryForm, "SecItemUpdate: kSecMatch keys (kSecMatchLimit included) are not allowed in the query")
            }
            if parsed.hasValueRef {
                throw SecItemError(.param, .queryForm, "SecItemUpdate: kSecValueRef is not supported")
            }
            if parsed.itemClass == .identity, parsed.persistentRef != nil {
                throw SecItemError(
                    .internal,
                    .queryForm,
                    "SecItemUpdate: an identity cannot be updated by persistent reference (src CLI handleUpdateIdentity)"
                )
            }
            // On the login keychain kSecAttrAccess replaces the items' lists; elsewhere it is no attribute.
            var changeDictionary = attributesToUpdate
            let access = try client.fileSide == nil ? nil : FileKeychain.takeAccess(from: &changeDictionary, call: .update)
            let changes = try QueryParser.parseUpdate(changeDictionary, itemClass: parsed.itemClass)
            try client.checkAppClipSync(changes.synchronizable, call: .update)
            if case .only(true) = changes.synchronizable {
                // Both named in the changes: refused before anything is searched.
                try Self.checkSyncProtection(synchronizable: true, protection: changes.protection, call: .update)
            }
            let filter = try filter(for: parsed, groups: client.writableGroups, client: client, loadData: true)
            let date = now()
            let engine = self
            let updated = try await store.write { writer in
                // An identity is updated as its certificate and its key, each with the changes its class has.
                let items =
                    filter.itemClass == .identity
                    ? try IdentityJoin.pairs(matching: filter, in: writer).flatMap { [$0.certificate, $0.key] }
                    : try writer.items(matching: filter)
                try engine.checkAvailable(items, client: client, call: .update)
                if !items.isEmpty { try client.checkFileUnlocked(call: .update) }
                let toTrust = Set(try client.checkFileTrust(items, call: .update).map(\.uuid))
                for item in items {
                    var new = try engine.updated(item, with: changes.restricted(to: item.itemClass), at: date, client: client)
                    if toTrust.contains(item.uuid) { new = client.trusting(new) }
                    // The new list comes last, as SecKeychainItemSetAccess follows the change on a Mac.
                    if let access { new = FileKeychain.replacingAccess(of: new, with: access, caller: client.caller.aclName) }
                    do {
                        try writer.replace(item, with: new)
                    } catch let error as StoreError where error.code == .duplicate {
                        throw SecItemError(
                            .duplicateItem,
                            .duplicate,
                            "SecItemUpdate: the change would give two items the same primary key; nothing was updated"
                        )
                    }
                    if item.isSynchronizable, item.primaryKey != new.primaryKey || item.keychain != new.keychain {
                        try writer.insert(engine.tombstone(of: item, at: date))
                    }
                    // The record keeps the item's UUID, so one change reaches it whatever changed;
                    // an item made local (sync to 0) leaves the cloud as a delete.
                    if item.isSynchronizable || new.isSynchronizable {
                        try writer.queueSyncChange(new.isSynchronizable ? new : engine.tombstone(of: item, at: date, uuid: item.uuid))
                    }
                }
                return items.count
            }
            guard updated > 0 else {
                throw await notFound(.update, filter: filter, held: client.writableGroups, searched: "the caller's writable groups")
            }
            return .success()
        }
    }

    /// `item` with `changes` applied and a modification date strictly later than its old one.
    func updated(_ item: KeychainItem, with changes: ParsedQuery, at date: Date, client: ClientContext) throws(SecItemError) -> KeychainItem {
        var new = item
        for (code, value) in changes.attributes where code != "cdat" {
            new.attributes[code] = value
        }
        if let control = changes.attributes["accc"]?.dictionaryValue, let protection = control["prot"]?.string {
            new.attributes["pdmn"] = .string(protection)
        }
        if case .only(let flag) = changes.synchronizable {
            new.attributes["sync"] = .integer(flag ? 1 : 0)
            new.keychain = client.keychain(synchronizable: flag)
        }
        if let data = changes.valueData {
            new.data = data
        }
        if changes.protection != nil || changes.synchronizable != .unspecified {
            // One of the two changed and the other was already so: the item would be both. An
            // update naming neither leaves an item stored before the rule as it was.
            try Self.checkSyncProtection(synchronizable: new.isSynchronizable, protection: new.attributes["pdmn"]?.string, call: .update)
        }
        var modified = date
        if case .date(let old)? = item.attributes["mdat"], modified <= old {
            modified = old.addingTimeInterval(0.001)
        }
        new.attributes["mdat"] = .date(modified)
        // The item keeps its UUID, so its persistent reference still finds it after a change of
        // primary key (si-43-persistent: update by reference, then find by the same reference);
        // a synchronizable item's old key is left behind as a tombstone with a UUID of its own.
        return new
    }

    /// What a deleted synchronizable item leaves behind (spec §4): its primary key, protection and
    /// creation date, marked deleted, with a later modification date.
    func tombstone(of item: KeychainItem, at date: Date, uuid: UUID = .timeOrdered()) -> KeychainItem {
        var attributes: [String: SecValue] = [:]
        for spec in item.itemClass.schema.primaryKey {
            attributes[spec.code] = item.attributes[spec.code]
        }
        attributes["pdmn"] = item.attributes["pdmn"]
        attributes["cdat"] = item.attributes["cdat"]
        var modified = date
        if case .date(let old)? = item.attributes["mdat"], modified <= old {
            modified = old.addingTimeInterval(0.001)
        }
        attributes["mdat"] = .date(modified)
        return KeychainItem(keychain: item.keychain, itemClass: item.itemClass, uuid: uuid, attributes: attributes, data: nil, isTombstone: true)
    }
}
