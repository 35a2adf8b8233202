import Foundation
public import KeychainTypes

extension KeychainEngine {
    /// `SecItemDelete` (spec keychain.md §2.6): deletes every matching item in the caller's
    /// writable groups; synchronizable items leave tombstones.
    public func delete(_ query: [String: SecValue], client: ClientContext) async -> SecItemResult {
        if let answer = await routed(query, client: client, function: .delete, { await delete($0, client: $1) }) {
            return answer
        }
        return await perform(for: client) {
            try QueryParser.checkInternalAttributes(query)
            guard !client.writableGroups.isEmpty else {
                throw SecItemError(.missingEntitlement, .accessGroup, "SecItemDelete: \(client.caller) has no writable access group")
            }
            try checkExplicitGroup(query["agrp"]?.string, allowed: client.mayWrite, client: client, call: .delete)
            var dictionary = query
            if client.device.stripsQueryKeys {
                dictionary = dictionary.filter {
                    !$0.key.hasPrefix("m_") && !$0.key.hasPrefix("r_") && $0.key != "v_Data" && $0.key != LegacyAccess.key
                }
            }
            let parsed = try QueryParser.parse(dictionary)
            try client.checkAppClipGroups(call: .delete)
            if !parsed.matchKeys.isEmpty {
                throw SecItemError(.param, .queryForm, "SecItemDelete: kSecMatch keys (kSecMatchLimit included) are not allowed on iOS")
            }
            if parsed.hasValueRef {
                throw SecItemError(.param, .queryForm, "SecItemDelete: kSecValueRef is not supported")
            }
            let filter = try filter(for: parsed, groups: client.writableGroups, client: client, loadData: false)
            let date = now()
            let engine = self
            let deleted = try await store.write { writer in
                // An identity is deleted as its certificate, then its key (src CLI explode_identity).
                let items =
                    filter.itemClass == .identity
                    ? try IdentityJoin.pairs(matching: filter, in: writer).flatMap { [$0.certificate, $0.key] }
                    : try writer.items(matching: filter)
                if !items.isEmpty { try client.checkFileUnlocked(call: .delete) }
                _ = try client.checkFileTrust(items, call: .delete)
                for item in items {
                    try writer.remove(item)
                    if item.isSynchronizable {
                        // The tombstone keeps the item's UUID: the delete reaches the cloud's
                        // record, and the account's other devices, by it.
                        let tombstone = engine.tombstone(of: item, at: date, uuid: item.uuid)
                        try writer.insert(tombstone)
                        try writer.queueSyncChange(tombstone)
                    }
                }
                return items.count
            }
            guard deleted > 0 else {
                throw await notFound(.delete, filter: filter, held: client.writableGroups, searched: "the caller's writable groups")
            }
            return .success()
        }
    }
}
