public import KeychainTypes

extension KeychainEngine {
    /// The login-keychain items `dictionary` matches (by attributes, whatever it asks to return),
    /// with what each one's access control list decides for `client`; `nil` for a caller without a
    /// login keychain. Nothing is written, no secret read.
    public func fileKeychainDecisions(_ dictionary: [String: SecValue], client: ClientContext) async -> [FileKeychainDecision]? {
        guard let file = client.onFileKeychain, let side = file.fileSide else { return nil }
        var attributes = FileKeychain.stripped(dictionary).filter { !$0.key.hasPrefix("r_") && !$0.key.hasPrefix("u_") && $0.key != LegacyAccess.key }
        attributes["m_Limit"] = .string("m_LimitAll")
        guard let query = try? QueryParser.parse(attributes),
            let search = try? filter(for: query, groups: file.accessGroups, client: file, loadData: false),
            let found = try? await store.lookup(search)
        else { return [] }
        return found.map { item in
            let access: FileKeychainDecision.Access =
                !FileKeychain.allows(item, partition: side.partition)
                ? .asksWithPassword : FileKeychain.trusts(item, caller: client.caller.aclName, partition: side.partition) ? .trusted : .asks
            return FileKeychainDecision(
                item: FileKeychain.name(of: item),
                trustedApps: FileKeychain.trustedApps(of: item),
                partitions: FileKeychain.partitions(of: item),
                access: access
            )
        }
    }
}
