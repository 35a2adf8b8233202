public import Foundation
import GRDB
import SQLiteSupport

/// The login service's accounts, sessions and failed-login counts in SQLite (GRDB, WAL). Passwords
/// are stored only as `PasswordHasher` hashes; session tokens only as their SHA-256.
public final class AccountStore: Sendable {
    let database: DatabaseQueue

    /// Opens (or creates) `website.sqlite` in `directory`.
    public init(directory: URL) throws {
        database = try DatabaseQueue.wal("website.sqlite", in: directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("website-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (
                        site TEXT NOT NULL, username TEXT NOT NULL, passwordHash TEXT NOT NULL, created REAL NOT NULL,
                        PRIMARY KEY (site, username)
                    );
                    CREATE TABLE sessions (
                        tokenHash TEXT PRIMARY KEY, site TEXT NOT NULL, username TEXT NOT NULL,
                        kind TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL
                    );
                    CREATE INDEX sessions_account ON sessions (site, username);
                    CREATE TABLE failures (
                        site TEXT NOT NULL, username TEXT NOT NULL, count INTEGER NOT NULL, since REAL NOT NULL,
                        PRIMARY KEY (site, username)
                    );
                    """
            )
        }
        migrator.registerMigration("website-v2-passkeys") { db in
            try db.execute(sql: Self.passkeySchema)
        }
        try migrator.migrate(database)
    }

    // MARK: Accounts

    /// Adds an account; false when the username is taken.
    public func insertAccount(site: String, username: String, passwordHash: String, at date: Date) throws -> Bool {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO accounts (site, username, passwordHash, created) VALUES (?, ?, ?, ?)",
                arguments: [site, username, passwordHash, date.timeIntervalSince1970]
            )
            return db.changesCount == 1
        }
    }

    public func passwordHash(site: String, username: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT passwordHash FROM accounts WHERE site = ? AND username = ?", arguments: [site, username])
        }
    }

    /// Replaces the hash and ends every session of the account but `keeping`.
    public func setPasswordHash(site: String, username: String, passwordHash: String, keeping tokenHash: String?) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE accounts SET passwordHash = ? WHERE site = ? AND username = ?", arguments: [passwordHash, site, username])
            try db.execute(
                sql: "DELETE FROM sessions WHERE site = ? AND username = ? AND tokenHash IS NOT ?",
                arguments: [site, username, tokenHash]
            )
        }
    }

    /// Removes the account and its sessions.
    public func deleteAccount(site: String, username: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE site = ? AND username = ?", arguments: [site, username])
            try db.execute(sql: "DELETE FROM sessions WHERE site = ? AND username = ?", arguments: [site, username])
            try db.execute(sql: "DELETE FROM failures WHERE site = ? AND username = ?", arguments: [site, username])
            try db.execute(sql: "DELETE FROM passkeys WHERE site = ? AND username = ?", arguments: [site, username])
            try db.execute(sql: "DELETE FROM passkeyUsers WHERE site = ? AND username = ?", arguments: [site, username])
        }
    }

    /// Removes every account, session and failed-login count (`kclab reset --all`); how many
    /// accounts there were.
    public func eraseAll() throws -> Int {
        try database.write { db in
            let accounts = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accounts") ?? 0
            for table in ["accounts", "sessions", "failures", "passkeys", "passkeyUsers", "ceremonies"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            return accounts
        }
    }

    // MARK: Sessions

    public func insertSession(tokenHash: String, site: String, username: String, kind: String, at date: Date, expires: Date) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO sessions (tokenHash, site, username, kind, created, expires) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [tokenHash, site, username, kind, date.timeIntervalSince1970, expires.timeIntervalSince1970]
            )
        }
    }

    /// The username of a live session of `site`.
    public func sessionUser(tokenHash: String, site: String, at date: Date) throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT username FROM sessions WHERE tokenHash = ? AND site = ? AND expires > ?",
                arguments: [tokenHash, site, date.timeIntervalSince1970]
            )
        }
    }

    public func deleteSession(tokenHash: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM sessions WHERE tokenHash = ?", arguments: [tokenHash]) }
    }

    // MARK: Failed logins

    /// Counts an attempt on an account before its password is checked, in one transaction, so
    /// that attempts made at the same moment cannot all pass a check of the count: nil when the
    /// attempt may go on (it is counted as a failure until ``clearFailures(site:username:)``), or
    /// when the account's pause ends.
    public func reserveAttempt(site: String, username: String, at date: Date, window: TimeInterval, maximum: Int) throws -> Date? {
        try database.write { db in
            let row = try Row.fetchOne(db, sql: "SELECT count, since FROM failures WHERE site = ? AND username = ?", arguments: [site, username])
            var count: Int = row?["count"] ?? 0
            var since = row.map { Date(timeIntervalSince1970: $0["since"]) } ?? date
            if date.timeIntervalSince(since) >= window {
                count = 0
                since = date
            }
            if count >= maximum { return since.addingTimeInterval(window) }
            try db.execute(
                sql: "INSERT OR REPLACE INTO failures (site, username, count, since) VALUES (?, ?, ?, ?)",
                arguments: [site, username, count + 1, since.timeIntervalSince1970]
            )
            return nil
        }
    }

    public func clearFailures(site: String, username: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM failures WHERE site = ? AND username = ?", arguments: [site, username]) }
    }
}
