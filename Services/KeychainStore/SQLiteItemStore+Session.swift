import Foundation
import GRDB
import KeychainItems
import KeychainTypes

extension SQLiteItemStore {
    /// One read or write transaction.
    final class Session: ItemWriting {
        let db: Database
        let vault: KeyVault

        init(db: Database, vault: KeyVault) {
            self.db = db
            self.vault = vault
        }

        func items(matching filter: ItemFilter) throws -> [KeychainItem] {
            var conditions = ["class = ?"]
            var arguments: [any DatabaseValueConvertible] = [filter.itemClass.rawValue]
            // The rows' keychains are among the filter's: their numbers lead back to their names.
            let names = Dictionary(filter.keychains.map { (KeychainNumber.of($0), $0) }, uniquingKeysWith: { first, _ in first })
            conditions.append("kc IN (\(placeholders(names.count)))")
            arguments += Array(names.keys)
            if !filter.includeTombstones {
                conditions.append("tomb = 0")
            }
            if let groups = filter.accessGroups {
                conditions.append("agrp IN (\(placeholders(groups.count)))")
                arguments += groups
            }
            if let synchronizable = filter.synchronizable {
                conditions.append("sync = ?")
                arguments.append(synchronizable ? 1 : 0)
            }
            if let uuid = filter.uuid {
                conditions.append("uuid = ?")
                arguments.append(uuidBytes(uuid))
            }
            for code in SQLiteItemStore.indexed {
                guard let value = filter.attributes[code] else { continue }
                let digests = try filter.keychains.map { try ItemSealing(keys: vault.keys(for: $0)).digest([value]) }
                conditions.append("\(code) IN (\(placeholders(digests.count)))")
                arguments += digests
            }
            let residual = filter.attributes.keys.contains { $0 != "agrp" && !SQLiteItemStore.indexed.contains($0) }
            var sql = "SELECT kc, class, uuid, tomb, attributes\(filter.loadData ? ", data" : "") FROM items WHERE "
            sql += conditions.joined(separator: " AND ") + " ORDER BY id"
            if !residual, let limit = filter.limit { sql += " LIMIT \(limit)" }

            var items: [KeychainItem] = []
            // The same few query shapes recur, so their prepared statements are kept.
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                // A row that cannot be opened is skipped, as securityd skips corrupt items.
                guard let keychain = names[row[Column.keychain]], let item = try? item(from: row, keychain: keychain, loadData: filter.loadData),
                    filter.admits(item)
                else { continue }
                items.append(item)
                if let limit = filter.limit, items.count >= limit { break }
            }
            return items
        }

        func insert(_ item: KeychainItem) throws {
            let sealing = try ItemSealing(keys: vault.keys(for: item.keychain))
            try clearConflicts(item, digest: sealing.digest(item.primaryKey), except: nil)
            try remember(item.keychain)
            try db.execute(
                sql: """
                    INSERT INTO items (kc, class, uuid, agrp, sync, tomb, pk, acct, svce, srvr, attributes, data)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(try columns(item, sealing: sealing))
            )
        }

        func replace(_ old: KeychainItem, with new: KeychainItem) throws {
            let sealing = try ItemSealing(keys: vault.keys(for: new.keychain))
            try clearConflicts(new, digest: sealing.digest(new.primaryKey), except: old.uuid)
            try remember(new.keychain)
            try db.execute(
                sql: """
                    UPDATE items SET kc = ?, class = ?, uuid = ?, agrp = ?, sync = ?, tomb = ?, pk = ?, acct = ?, svce = ?,
                    srvr = ?, attributes = ?, data = ? WHERE uuid = ?
                    """,
                arguments: StatementArguments(try columns(new, sealing: sealing) + [uuidBytes(old.uuid)])
            )
            guard db.changesCount == 1 else { throw StoreError(.corrupt, "the item to replace is gone") }
        }

        func remove(_ item: KeychainItem) throws {
            try db.execute(sql: "DELETE FROM items WHERE uuid = ?", arguments: [uuidBytes(item.uuid)])
        }

        /// A live item with the same key is a duplicate; a tombstone with it gives way.
        private func clearConflicts(_ item: KeychainItem, digest: Data, except uuid: UUID?) throws {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT uuid, tomb FROM items WHERE kc = ? AND class = ? AND pk = ?",
                arguments: [KeychainNumber.of(item.keychain), item.itemClass.rawValue, digest]
            )
            for row in rows {
                let rowUUID: Data = row["uuid"]
                if let uuid, rowUUID == uuidBytes(uuid) { continue }
                let tomb: Int = row["tomb"]
                guard tomb == 1 else { throw StoreError(.duplicate, "an item with the same primary key exists") }
                try db.execute(sql: "DELETE FROM items WHERE uuid = ?", arguments: [rowUUID])
            }
        }

        private func columns(_ item: KeychainItem, sealing: ItemSealing) throws -> [(any DatabaseValueConvertible)?] {
            let context = ItemSealing.context(item.uuid, item.itemClass, item.keychain)
            let attributes = try sealing.seal(SecValueCodec.encode(item.attributes), context: context)
            let data = try item.data.map { try sealing.seal($0, context: context + Data("data".utf8)) }
            let lookups: [(any DatabaseValueConvertible)?] = SQLiteItemStore.indexed.map { code in
                item.attributes[code].map { sealing.digest([$0]) }
            }
            let head: [(any DatabaseValueConvertible)?] = [
                KeychainNumber.of(item.keychain), item.itemClass.rawValue, uuidBytes(item.uuid), item.accessGroup,
                item.isSynchronizable ? 1 : 0, item.isTombstone ? 1 : 0, sealing.digest(item.primaryKey),
            ]
            return head + lookups + [attributes, data]
        }

        /// Keeps the keychain's name beside its number, for listings.
        private func remember(_ keychain: String) throws {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO keychains (id, name) VALUES (?, ?)")
                .execute(arguments: [KeychainNumber.of(keychain), keychain])
        }

        /// The selected columns by position (a name costs a search of the row's columns).
        private enum Column {
            static let keychain = 0
            static let itemClass = 1
            static let uuid = 2
            static let tomb = 3
            static let attributes = 4
            static let data = 5
        }

        private func item(from row: Row, keychain: String, loadData: Bool) throws -> KeychainItem {
            let className: String = row[Column.itemClass]
            let uuidData: Data = row[Column.uuid]
            guard let itemClass = ItemClass(rawValue: className), uuidData.count == 16 else {
                throw StoreFailure("a row has no valid class or UUID")
            }
            let uuid = uuidData.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            let sealing = try ItemSealing(keys: vault.keys(for: keychain))
            let context = ItemSealing.context(uuid, itemClass, keychain)
            let attributes = try SecValueCodec.decode(sealing.open(row[Column.attributes], context: context))
            var data: Data? = nil
            if loadData, let sealed: Data = row[Column.data] {
                data = try sealing.open(sealed, context: context + Data("data".utf8))
            }
            let tomb: Int = row[Column.tomb]
            return KeychainItem(keychain: keychain, itemClass: itemClass, uuid: uuid, attributes: attributes, data: data, isTombstone: tomb == 1)
        }

        private func placeholders(_ count: Int) -> String {
            Array(repeating: "?", count: max(count, 1)).joined(separator: ", ")
        }

        private func uuidBytes(_ uuid: UUID) -> Data {
            withUnsafeBytes(of: uuid.uuid) { Data($0) }
        }
    }
}
