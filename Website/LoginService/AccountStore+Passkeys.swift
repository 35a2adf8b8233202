public import Foundation
import GRDB

/// Passkeys in the accounts database: each account's WebAuthn user handle, its credentials (the
/// public key, never a private one), and the open ceremonies' challenges (single use, expiring).
extension AccountStore {
    static let passkeySchema = """
        CREATE TABLE passkeyUsers (
            site TEXT NOT NULL, username TEXT NOT NULL, handle BLOB NOT NULL UNIQUE,
            PRIMARY KEY (site, username)
        );
        CREATE TABLE passkeys (
            credentialID BLOB PRIMARY KEY, site TEXT NOT NULL, username TEXT NOT NULL, publicKey BLOB NOT NULL,
            signCount INTEGER NOT NULL, backupEligible INTEGER NOT NULL, backedUp INTEGER NOT NULL,
            userVerified INTEGER NOT NULL, created REAL NOT NULL, lastUsed REAL
        );
        CREATE INDEX passkeys_account ON passkeys (site, username);
        CREATE TABLE ceremonies (
            tokenHash TEXT PRIMARY KEY, site TEXT NOT NULL, kind TEXT NOT NULL, username TEXT, handle BLOB,
            challenge BLOB NOT NULL, binding TEXT, expires REAL NOT NULL
        );
        """

    /// A stored passkey.
    public struct StoredPasskey: Sendable, Hashable {
        public var credentialID: Data
        public var username: String
        public var publicKey: Data
        public var signCount: UInt32
        public var backupEligible: Bool
        public var backedUp: Bool
    }

    /// An open ceremony, as its options were issued.
    public struct Ceremony: Sendable, Hashable {
        public var kind: String
        public var username: String?
        public var handle: Data?
        public var challenge: Data
        /// For a page's ceremony: SHA-256 of the browser's form cookie, which the answer must carry.
        public var binding: String?
    }

    public func userHandle(site: String, username: String) throws -> Data? {
        try database.read { db in
            try Data.fetchOne(db, sql: "SELECT handle FROM passkeyUsers WHERE site = ? AND username = ?", arguments: [site, username])
        }
    }

    public func insertCeremony(tokenHash: String, site: String, ceremony: Ceremony, expires: Date) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM ceremonies WHERE expires < ?", arguments: [Date().timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO ceremonies (tokenHash, site, kind, username, handle, challenge, binding, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    tokenHash, site, ceremony.kind, ceremony.username, ceremony.handle, ceremony.challenge, ceremony.binding,
                    expires.timeIntervalSince1970,
                ]
            )
        }
    }

    /// The ceremony, removed as it is read: a challenge answers once, whatever the answer. `nil`
    /// when it is unknown, of another site, expired, or not of one of `kinds`.
    public func takeCeremony(tokenHash: String, site: String, kinds: Set<String>, at date: Date) throws -> Ceremony? {
        try database.write { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT kind, username, handle, challenge, binding, expires FROM ceremonies WHERE tokenHash = ? AND site = ?",
                arguments: [tokenHash, site]
            )
            try db.execute(sql: "DELETE FROM ceremonies WHERE tokenHash = ?", arguments: [tokenHash])
            guard let row, (row["expires"] as Double) >= date.timeIntervalSince1970, kinds.contains(row["kind"]) else { return nil }
            return Ceremony(kind: row["kind"], username: row["username"], handle: row["handle"], challenge: row["challenge"], binding: row["binding"])
        }
    }

    /// What storing a passkey gave.
    public enum PasskeyInsertion: Sendable, Hashable {
        case stored
        /// The account was to be created, but exists.
        case accountExists
        /// Another passkey has this credential ID.
        case credentialTaken
    }

    /// Stores a new passkey for an account (created here, without a password, when `createAccount`);
    /// nothing is stored when the account exists but should not, or the credential ID is taken.
    public func insertPasskey(
        site: String,
        username: String,
        handle: Data,
        passkey: StoredPasskey,
        userVerified: Bool,
        createAccount: Bool,
        at date: Date
    ) throws -> PasskeyInsertion {
        try database.write { db in
            // The credential ID first: a taken one is that, whatever the account.
            let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM passkeys WHERE credentialID = ?", arguments: [passkey.credentialID]) ?? false
            guard !taken else { return .credentialTaken }
            if createAccount {
                // No password: the stored hash is empty, which no password verifies against.
                try db.execute(
                    sql: "INSERT OR IGNORE INTO accounts (site, username, passwordHash, created) VALUES (?, ?, '', ?)",
                    arguments: [site, username, date.timeIntervalSince1970]
                )
                guard db.changesCount == 1 else { return .accountExists }
            }
            try db.execute(
                sql: "INSERT OR IGNORE INTO passkeyUsers (site, username, handle) VALUES (?, ?, ?)",
                arguments: [site, username, handle]
            )
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO passkeys (credentialID, site, username, publicKey, signCount, backupEligible, backedUp, userVerified, created)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    passkey.credentialID, site, username, passkey.publicKey, Int64(passkey.signCount), passkey.backupEligible,
                    passkey.backedUp, userVerified, date.timeIntervalSince1970,
                ]
            )
            guard db.changesCount == 1 else {
                // Nothing half-made: an account created for this passkey goes with it.
                if createAccount { try db.execute(sql: "DELETE FROM accounts WHERE site = ? AND username = ?", arguments: [site, username]) }
                return .credentialTaken
            }
            return .stored
        }
    }

    public func passkey(site: String, credentialID: Data) throws -> StoredPasskey? {
        try database.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT * FROM passkeys WHERE site = ? AND credentialID = ?",
                arguments: [site, credentialID]
            ).map(Self.passkey)
        }
    }

    public func passkeys(site: String, username: String) throws -> [StoredPasskey] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM passkeys WHERE site = ? AND username = ? ORDER BY created", arguments: [site, username])
                .map(Self.passkey)
        }
    }

    /// Records a use: the new counter and backup state.
    public func recordUse(credentialID: Data, signCount: UInt32, backedUp: Bool, at date: Date) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE passkeys SET signCount = ?, backedUp = ?, lastUsed = ? WHERE credentialID = ?",
                arguments: [Int64(signCount), backedUp, date.timeIntervalSince1970, credentialID]
            )
        }
    }

    private static func passkey(_ row: Row) -> StoredPasskey {
        StoredPasskey(
            credentialID: row["credentialID"],
            username: row["username"],
            publicKey: row["publicKey"],
            signCount: UInt32(clamping: row["signCount"] as Int64),
            backupEligible: row["backupEligible"],
            backedUp: row["backedUp"]
        )
    }
}
