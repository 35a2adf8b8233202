public import AppIdentity
public import AssociationAPI
public import Foundation
import GRDB
import SQLiteSupport
import SiteAssociation

/// Every association in SQLite (GRDB, WAL), kept until the app is deleted from its device.
public final class AssociationStore: Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) `associations.sqlite` in `directory`.
    public init(directory: URL) throws {
        database = try DatabaseQueue.wal("associations.sqlite", in: directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("associations-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE associations (
                        device TEXT NOT NULL, appID TEXT NOT NULL, service TEXT NOT NULL, entry TEXT NOT NULL,
                        record TEXT NOT NULL, nextRetry REAL,
                        PRIMARY KEY (device, appID, service, entry)
                    )
                    """
            )
            try db.execute(sql: "CREATE INDEX associations_retry ON associations (nextRetry)")
        }
        migrator.registerMigration("device-settings-v1") { db in
            try db.execute(sql: "CREATE TABLE deviceSettings (device TEXT PRIMARY KEY, settings TEXT NOT NULL)")
        }
        try migrator.migrate(database)
    }

    private static func decode(_ text: String) -> AssociationRecord? {
        try? AssociationAPI.decoder().decode(AssociationRecord.self, from: Data(text.utf8))
    }

    /// Stores `record`, replacing the one for the same (device, app, service, entry).
    public func save(_ record: AssociationRecord) throws {
        try saveInstall(settings: nil, device: record.device, records: [record])
    }

    /// Stores a device's settings and an install's records in one transaction: one commit (one
    /// fsync) an install however many entries the app names, and never half an install.
    public func saveInstall(settings: AssociationAPI.DeviceSettings?, device: String, records: [AssociationRecord]) throws {
        let settingsText = try settings.map { String(decoding: try AssociationAPI.encoder().encode($0), as: UTF8.self) }
        let rows = try records.map { record -> StatementArguments in
            let text = String(decoding: try AssociationAPI.encoder().encode(record), as: UTF8.self)
            return [record.device, record.appID.rawValue, record.service.rawValue, record.entry, text, record.nextRetry?.timeIntervalSince1970]
        }
        try database.write { db in
            if let settingsText {
                try db.execute(sql: "INSERT OR REPLACE INTO deviceSettings (device, settings) VALUES (?, ?)", arguments: [device, settingsText])
            }
            for row in rows {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO associations (device, appID, service, entry, record, nextRetry) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: row
                )
            }
        }
    }

    /// The stored record for one association.
    public func record(device: String, appID: AppID, service: String, entry: String) throws -> AssociationRecord? {
        try database.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT record FROM associations WHERE device = ? AND appID = ? AND service = ? AND entry = ?",
                arguments: [device, appID.rawValue, service, entry]
            )
        }.flatMap(Self.decode)
    }

    /// Every record, optionally of one device and one app, in a stable order.
    public func records(device: String? = nil, appID: AppID? = nil) throws -> [AssociationRecord] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT record FROM associations WHERE (? IS NULL OR device = ?) AND (? IS NULL OR appID = ?)
                    ORDER BY device, appID, service, entry
                    """,
                arguments: [device, device, appID?.rawValue, appID?.rawValue]
            )
        }.compactMap(Self.decode)
    }

    /// The pending records whose retry time has come.
    public func due(at now: Date) throws -> [AssociationRecord] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT record FROM associations WHERE nextRetry <= ? ORDER BY nextRetry",
                arguments: [now.timeIntervalSince1970]
            )
        }.compactMap(Self.decode)
    }

    /// Stores what a device said about Developer Mode and MDM at its latest install.
    public func saveSettings(_ settings: AssociationAPI.DeviceSettings, device: String) throws {
        try saveInstall(settings: settings, device: device, records: [])
    }

    /// A device's settings, nil when it never said.
    public func settings(device: String) throws -> AssociationAPI.DeviceSettings? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT settings FROM deviceSettings WHERE device = ?", arguments: [device])
        }.flatMap { try? AssociationAPI.decoder().decode(AssociationAPI.DeviceSettings.self, from: Data($0.utf8)) }
    }

    /// Forgets an app's associations on a device: the app was deleted.
    public func removeApp(device: String, appID: AppID) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM associations WHERE device = ? AND appID = ?", arguments: [device, appID.rawValue])
        }
    }
}
