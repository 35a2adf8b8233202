import Foundation
import KeychainItems
import KeychainTypes
import LabErrors

extension SQLiteItemStore {
    /// One read or write transaction, on a connection's statements (``SQLiteStatements``).
    final class Session: ItemWriting {
        let statements: SQLiteStatements
        let vault: KeyVault

        init(statements: SQLiteStatements, vault: KeyVault) {
            self.statements = statements
            self.vault = vault
        }

        func items(matching filter: ItemFilter) throws -> [KeychainItem] {
            var conditions = ["class = ?"]
            var arguments: [SQLValue] = [.text(filter.itemClass.rawValue)]
            // The rows' keychains are among the filter's: their numbers lead back to their names.
            let names = Dictionary(filter.keychains.map { (KeychainNumber.of($0), $0) }, uniquingKeysWith: { first, _ in first })
            conditions.append("kc IN (\(placeholders(names.count)))")
            arguments += names.keys.map { .integer($0) }
            if !filter.includeTombstones {
                conditions.append("tomb = 0")
            }
            if let groups = filter.accessGroups {
                conditions.append("agrp IN (\(placeholders(groups.count)))")
                arguments += groups.map { .text($0) }
            }
            if let synchronizable = filter.synchronizable {
                conditions.append("sync = ?")
                arguments.append(.integer(synchronizable ? 1 : 0))
            }
            if let uuid = filter.uuid {
                conditions.append("uuid = ?")
                arguments.append(.blob(uuidBytes(uuid)))
            }
            // Each keychain's keys, fetched once (and only when a digest or a row needs them).
            var sealings: [Int64: ItemSealing] = [:]
            func sealing(_ number: Int64, _ name: String) throws -> ItemSealing {
                if let known = sealings[number] { return known }
                let sealing = ItemSealing(keys: try vault.keys(for: name))
                sealings[number] = sealing
                return sealing
            }
            for code in SQLiteItemStore.indexed {
                guard let value = filter.attributes[code] else { continue }
                let digests = try names.map { number, name in try sealing(number, name).digest([value]) }
                conditions.append("\(code) IN (\(placeholders(digests.count)))")
                arguments += digests.map { .blob($0) }
            }
            let residual = filter.attributes.keys.contains { $0 != "agrp" && !SQLiteItemStore.indexed.contains($0) }
            var sql = "SELECT kc, class, uuid, tomb, attributes\(filter.loadData ? ", data" : "") FROM items WHERE "
            sql += conditions.joined(separator: " AND ") + " ORDER BY id"
            if !residual, let limit = filter.limit { sql += " LIMIT \(limit)" }

            var items: [KeychainItem] = []
            // The same few query shapes recur, so their prepared statements are kept.
            try statements.select(sql, arguments) { row in
                // A row that cannot be opened is skipped, as securityd skips corrupt items.
                let number = row.integer(Column.keychain)
                guard let keychain = names[number], let sealing = try? sealing(number, keychain),
                    let item = try? item(from: row, keychain: keychain, sealing: sealing, loadData: filter.loadData),
                    filter.admits(item)
                else { return true }
                items.append(item)
                if let limit = filter.limit, items.count >= limit { return false }
                return true
            }
            return items
        }

        /// Found by the primary key's unique index: no other row of the keychain is opened.
        func tombstone(withKeyOf item: KeychainItem) throws -> KeychainItem? {
            let sealing = try ItemSealing(keys: vault.keys(for: item.keychain))
            var found: KeychainItem? = nil
            try statements.select(
                "SELECT kc, class, uuid, tomb, attributes FROM items WHERE kc = ? AND class = ? AND pk = ? AND tomb = 1",
                [.integer(KeychainNumber.of(item.keychain)), .text(item.itemClass.rawValue), .blob(sealing.digest(item.primaryKey))]
            ) { row in
                // A tombstone that cannot be opened is as good as none: the insert clears it anyway.
                found = try? self.item(from: row, keychain: item.keychain, sealing: sealing, loadData: false)
                return false
            }
            return found
        }

        func insert(_ item: KeychainItem) throws {
            let sealing = try ItemSealing(keys: vault.keys(for: item.keychain))
            try clearConflicts(item, digest: sealing.digest(item.primaryKey), except: nil)
            try remember(item.keychain)
            try statements.execute(
                """
                INSERT INTO items (kc, class, uuid, agrp, sync, tomb, pk, acct, svce, srvr, attributes, data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                try columns(item, sealing: sealing)
            )
        }

        func replace(_ old: KeychainItem, with new: KeychainItem) throws {
            let sealing = try ItemSealing(keys: vault.keys(for: new.keychain))
            try clearConflicts(new, digest: sealing.digest(new.primaryKey), except: old.uuid)
            try remember(new.keychain)
            let changed = try statements.execute(
                """
                UPDATE items SET kc = ?, class = ?, uuid = ?, agrp = ?, sync = ?, tomb = ?, pk = ?, acct = ?, svce = ?,
                srvr = ?, attributes = ?, data = ? WHERE kc = ? AND uuid = ?
                """,
                try columns(new, sealing: sealing) + [.integer(KeychainNumber.of(old.keychain)), .blob(uuidBytes(old.uuid))]
            )
            guard changed == 1 else { throw StoreError(.corrupt, "the item to replace is gone") }
        }

        func remove(_ item: KeychainItem) throws {
            try statements.execute(
                "DELETE FROM items WHERE kc = ? AND uuid = ?",
                [.integer(KeychainNumber.of(item.keychain)), .blob(uuidBytes(item.uuid))]
            )
        }

        func syncChanges(keychain: String, after sequence: Int64, limit: Int) throws -> [QueuedSyncChange] {
            var changes: [QueuedSyncChange] = []
            try statements.select(
                "SELECT seq, class, uuid FROM sync_changes WHERE kc = ? AND seq > ? ORDER BY seq LIMIT ?",
                [.integer(KeychainNumber.of(keychain)), .integer(sequence), .integer(Int64(max(0, limit)))]
            ) { row in
                if let itemClass = row.text(1).flatMap(ItemClass.init(rawValue:)), let bytes = row.blob(2), bytes.count == 16 {
                    let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                    changes.append(QueuedSyncChange(sequence: row.integer(0), itemClass: itemClass, uuid: uuid))
                }
                return true
            }
            return changes
        }

        func queueSyncChange(_ item: KeychainItem) throws {
            try statements.execute(
                "INSERT INTO sync_changes (kc, class, uuid) VALUES (?, ?, ?)",
                [.integer(KeychainNumber.of(item.keychain)), .text(item.itemClass.rawValue), .blob(uuidBytes(item.uuid))]
            )
        }

        /// A live item with the same key is a duplicate; a tombstone with it gives way.
        private func clearConflicts(_ item: KeychainItem, digest: Data, except uuid: UUID?) throws {
            var rows: [(uuid: Data, tomb: Int64)] = []
            try statements.select(
                "SELECT uuid, tomb FROM items WHERE kc = ? AND class = ? AND pk = ?",
                [.integer(KeychainNumber.of(item.keychain)), .text(item.itemClass.rawValue), .blob(digest)]
            ) { row in
                rows.append((row.blob(0) ?? Data(), row.integer(1)))
                return true
            }
            for row in rows {
                if let uuid, row.uuid == uuidBytes(uuid) { continue }
                guard row.tomb == 1 else { throw StoreError(.duplicate, "an item with the same primary key exists") }
                try statements.execute(
                    "DELETE FROM items WHERE kc = ? AND uuid = ?",
                    [.integer(KeychainNumber.of(item.keychain)), .blob(row.uuid)]
                )
            }
        }

        private func columns(_ item: KeychainItem, sealing: ItemSealing) throws -> [SQLValue] {
            let context = ItemSealing.context(item.uuid, item.itemClass, item.keychain)
            let attributes = try sealing.seal(SecValueCodec.encode(item.attributes), context: context)
            let data = try item.data.map { try sealing.seal($0, context: context + Data("data".utf8)) }
            let lookups: [SQLValue] = SQLiteItemStore.indexed.map { code in
                item.attributes[code].map { .blob(sealing.digest([$0])) } ?? .null
            }
            let head: [SQLValue] = [
                .integer(KeychainNumber.of(item.keychain)), .text(item.itemClass.rawValue), .blob(uuidBytes(item.uuid)),
                .text(item.accessGroup), .integer(item.isSynchronizable ? 1 : 0), .integer(item.isTombstone ? 1 : 0),
                .blob(sealing.digest(item.primaryKey)),
            ]
            return head + lookups + [.blob(attributes), data.map { .blob($0) } ?? .null]
        }

        /// Keeps the keychain's name beside its number, for listings.
        private func remember(_ keychain: String) throws {
            try statements.execute(
                "INSERT OR IGNORE INTO keychains (id, name) VALUES (?, ?)",
                [.integer(KeychainNumber.of(keychain)), .text(keychain)]
            )
        }

        /// The selected columns by position (a name costs a search of the row's columns).
        private enum Column {
            static let keychain: Int32 = 0
            static let itemClass: Int32 = 1
            static let uuid: Int32 = 2
            static let tomb: Int32 = 3
            static let attributes: Int32 = 4
            static let data: Int32 = 5
        }

        private func item(from row: StatementRow, keychain: String, sealing: ItemSealing, loadData: Bool) throws -> KeychainItem {
            guard let itemClass = row.text(Column.itemClass).flatMap(ItemClass.init(rawValue:)), let uuidData = row.blob(Column.uuid),
                uuidData.count == 16
            else {
                throw StoreFailure("a row has no valid class or UUID")
            }
            let uuid = uuidData.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            let context = ItemSealing.context(uuid, itemClass, keychain)
            let attributes = try SecValueCodec.decode(sealing.open(row.blob(Column.attributes) ?? Data(), context: context))
            var data: Data? = nil
            if loadData, let sealed = row.blob(Column.data) {
                data = try sealing.open(sealed, context: context + Data("data".utf8))
            }
            return KeychainItem(
                keychain: keychain,
                itemClass: itemClass,
                uuid: uuid,
                attributes: attributes,
                data: data,
                isTombstone: row.integer(Column.tomb) == 1
            )
        }

        private func placeholders(_ count: Int) -> String {
            Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
        }

        private func uuidBytes(_ uuid: UUID) -> Data {
            withUnsafeBytes(of: uuid.uuid) { Data($0) }
        }
    }
}
