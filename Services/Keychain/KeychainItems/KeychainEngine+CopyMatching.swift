public import KeychainTypes

extension KeychainEngine {
    /// `SecItemCopyMatching` (spec keychain.md §2.4).
    public func copyMatching(_ dictionary: [String: SecValue], client: ClientContext) async -> SecItemResult {
        if let answer = await routed(dictionary, client: client, function: .copyMatching, { await copyMatching($0, client: $1) }) {
            return answer
        }
        return await perform(for: client) {
            try QueryParser.checkInternalAttributes(dictionary)
            guard !client.accessGroups.isEmpty else {
                throw SecItemError(.missingEntitlement, .accessGroup, "SecItemCopyMatching: \(client.caller) has no access group")
            }
            // macOS's SecItem layer drops kSecAttrAccess from a search.
            var query = try QueryParser.parse(client.device.stripsQueryKeys ? dictionary.filter { $0.key != LegacyAccess.key } : dictionary)
            if client.fileSide != nil, !query.returnsAnything {
                // The file keychain's default result is a reference to the item (src OSX
                // `_CreateSecItemParamsFromDictionary`), where the data-protection keychain gives none.
                query.returnRef = true
            }
            try checkExplicitGroup(query.accessGroup, allowed: client.mayRead, client: client, call: .copyMatching)
            try client.checkAppClipGroups(call: .copyMatching)
            if query.itemClass != .certificate && query.itemClass != .identity,
                query.matchKeys["m_Issuers"] != nil || query.matchKeys["m_Policy"] != nil
            {
                throw SecItemError(
                    .unimplemented,
                    .queryForm,
                    "SecItemCopyMatching: kSecMatchIssuers and kSecMatchPolicy apply to certificates and identities"
                )
            }
            if query.itemClass != .internetPassword, query.matchKeys["m_HostOrSubdomainOfHost"] != nil {
                throw SecItemError(.unimplemented, .queryForm, "SecItemCopyMatching: kSecMatchHostOrSubdomainOfHost applies to internet passwords")
            }
            if query.useKeys["u_ItemList"] != nil {
                throw SecItemError(.param, .queryForm, "SecItemCopyMatching: kSecUseItemList is not supported")
            }
            let limit = query.matchLimit ?? .count(1)
            if client.fileSide != nil, query.returnData, limit.returnsArray,
                query.itemClass == .genericPassword || query.itemClass == .internetPassword
            {
                throw SecItemError(.param, .queryForm, "SecItemCopyMatching: the file keychain returns no password data for more than one item")
            }
            var search = try filter(for: query, groups: client.accessGroups, client: client, loadData: query.returnData)
            search.limit = limit.maximum
            let filter = search
            let found =
                filter.itemClass == .identity
                ? try await store.read { try IdentityJoin.pairs(matching: filter, in: $0).map(\.identity) }
                : try await store.lookup(filter)
            guard !found.isEmpty else {
                throw await notFound(.copyMatching, filter: filter, held: client.accessGroups, searched: "the caller's groups")
            }
            try checkAvailable(found, client: client, call: .copyMatching)
            if query.returnData {
                try client.checkFileUnlocked(call: .copyMatching)
                let toTrust = try client.checkFileTrust(found, call: .copyMatching)
                if !toTrust.isEmpty {
                    try await store.write { writer in
                        for item in toTrust { try writer.replace(item, with: client.trusting(item)) }
                    }
                }
            }
            return .success(ResultShape.found(found, query: query, limit: limit, platform: client.device.platform))
        }
    }
}
