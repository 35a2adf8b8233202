public import AppIdentity
public import Foundation
import GRDB
import SQLiteSupport
public import WebCredentialAPI

/// User approvals per (device, app, host), as swcagent keeps them, in SQLite (GRDB, WAL). They
/// hold no password: only whether the user last allowed or declined.
public final class ApprovalStore: Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) `approvals.sqlite` in `directory`.
    public init(directory: URL) throws {
        database = try DatabaseQueue.wal("approvals.sqlite", in: directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("approvals-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE approvals (
                        device TEXT NOT NULL, appID TEXT NOT NULL, host TEXT NOT NULL,
                        approved INTEGER NOT NULL, updated REAL NOT NULL,
                        PRIMARY KEY (device, appID, host)
                    )
                    """
            )
        }
        try migrator.migrate(database)
    }

    /// Records the user's latest decision.
    public func record(device: String, appID: AppID, host: String, approved: Bool, at date: Date = Date()) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO approvals (device, appID, host, approved, updated) VALUES (?, ?, ?, ?, ?)",
                arguments: [device, appID.rawValue, host, approved, date.timeIntervalSince1970]
            )
        }
    }

    /// A device's approvals, in a stable order.
    public func approvals(device: String) throws -> [WebCredentialAPI.UserApproval] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM approvals WHERE device = ? ORDER BY appID, host", arguments: [device]).map { row in
                WebCredentialAPI.UserApproval(
                    appID: try AppID(row["appID"] as String),
                    host: row["host"],
                    approved: row["approved"],
                    updated: Date(timeIntervalSince1970: row["updated"])
                )
            }
        }
    }
}
