import KeychainTypes

extension ItemReading {
    /// The tombstone a deleted synchronizable item left with `item`'s keychain, class and primary
    /// key, if the store still keeps one (spec keychain.md §4).
    ///
    /// An add over it takes its UUID, as securityd's `SecDbItemInsert` keeps the UUID of the
    /// tombstone it replaces unless the caller asked for a UUID of its own
    /// (`keychain/securityd/SecDbItem.c`; `s3dl_query_add` in `SecItemDb.c` asks only for a
    /// UUID derived from the primary key).
    public func tombstone(withKeyOf item: KeychainItem) throws -> KeychainItem? {
        var filter = ItemFilter(keychains: [item.keychain], itemClass: item.itemClass, includeTombstones: true)
        for spec in item.itemClass.schema.primaryKey {
            filter.attributes[spec.code] = item.attributes[spec.code] ?? spec.defaultValue
        }
        let key = item.primaryKey
        return try items(matching: filter).first { $0.isTombstone && $0.primaryKey == key }
    }
}
