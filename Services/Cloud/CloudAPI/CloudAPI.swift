public import Foundation

/// cloudd's HTTP API: the wire forms of a zone's records, a batch of writes and its answers, and
/// a page of changes (openapi.yaml). Payloads are sealed items, base64 in JSON; cloudd cannot
/// read them.
public enum CloudAPI {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }

    /// The most writes one batch may carry.
    public static let maximumBatch = 400
    /// The largest payload of a record, exclusive: CKKS refuses records of 1 MiB or more.
    public static let maximumPayload = 1 << 20

    /// A record as cloudd keeps it.
    public struct Record: Codable, Sendable, Hashable {
        public let uuid: UUID
        public let changeTag: String
        public let payload: Data

        public init(uuid: UUID, changeTag: String, payload: Data) {
            self.uuid = uuid
            self.changeTag = changeTag
            self.payload = payload
        }
    }

    /// One write: save `payload` over the record whose tag is `expectedTag` (none: a new
    /// record), or delete the record (no payload).
    public struct Write: Codable, Sendable, Hashable {
        public let uuid: UUID
        public let payload: Data?
        public let expectedTag: String?

        public init(uuid: UUID, payload: Data?, expectedTag: String?) {
            self.uuid = uuid
            self.payload = payload
            self.expectedTag = expectedTag
        }
    }

    /// `POST /v1/zones/{view}/modify`: applied all or none.
    public struct ModifyRequest: Codable, Sendable, Hashable {
        public let writes: [Write]

        public init(writes: [Write]) {
            self.writes = writes
        }
    }

    /// What became of one write.
    public struct Outcome: Codable, Sendable, Hashable {
        public enum Status: String, Codable, Sendable {
            case saved, deleted, conflict, notAttempted
        }

        public let status: Status
        /// The record's new tag, when saved.
        public let changeTag: String?
        /// The server's record, for a conflict (none when it was deleted).
        public let server: Record?

        public init(status: Status, changeTag: String? = nil, server: Record? = nil) {
            self.status = status
            self.changeTag = changeTag
            self.server = server
        }
    }

    public struct ModifyResponse: Codable, Sendable, Hashable {
        /// By record UUID (its text, upper case).
        public let outcomes: [String: Outcome]

        public init(outcomes: [String: Outcome]) {
            self.outcomes = outcomes
        }
    }

    /// One change of a page: a record saved (with its tag and payload) or deleted.
    public struct Change: Codable, Sendable, Hashable {
        public let uuid: UUID
        public let deleted: Bool
        public let changeTag: String?
        public let payload: Data?

        public init(uuid: UUID, deleted: Bool, changeTag: String? = nil, payload: Data? = nil) {
            self.uuid = uuid
            self.deleted = deleted
            self.changeTag = changeTag
            self.payload = payload
        }
    }

    /// `GET /v1/zones/{view}/changes?since=TOKEN`.
    public struct ChangesResponse: Codable, Sendable, Hashable {
        public let changes: [Change]
        public let token: String
        public let moreComing: Bool

        public init(changes: [Change], token: String, moreComing: Bool) {
            self.changes = changes
            self.token = token
            self.moreComing = moreComing
        }
    }

    /// One record as the operator sees it: never its payload.
    public struct RecordSummary: Codable, Sendable, Hashable {
        public let uuid: UUID
        public let changeTag: String
        /// The sealed payload's size in bytes.
        public let size: Int

        public init(uuid: UUID, changeTag: String, size: Int) {
            self.uuid = uuid
            self.changeTag = changeTag
            self.size = size
        }
    }

    /// `GET /v1/admin/zones?account=A[&view=V]`: an account's zones as cloudd holds them.
    public struct ZoneListing: Codable, Sendable, Hashable {
        public let account: String
        public let view: String
        /// The zone's latest change token.
        public let token: String
        public let records: [RecordSummary]

        public init(account: String, view: String, token: String, records: [RecordSummary]) {
            self.account = account
            self.view = view
            self.token = token
            self.records = records
        }
    }

    /// `POST /v1/admin/zones/erase`: the accounts whose zones to empty (`kclab reset`).
    public struct EraseRequest: Codable, Sendable, Hashable {
        public let accounts: [String]

        public init(accounts: [String]) {
            self.accounts = accounts
        }
    }

    /// What an erase removed from one zone, never a payload.
    public struct ZoneErasure: Codable, Sendable, Hashable {
        public let account: String
        public let view: String
        /// The records removed.
        public let records: Int
        /// The entries of the zone's change log removed (0: the zone had nothing to erase).
        public let changes: Int
        /// The zone's latest change token once erased: a device's token from before it expires.
        public let token: String

        public init(account: String, view: String, records: Int, changes: Int, token: String) {
            self.account = account
            self.view = view
            self.records = records
            self.changes = changes
            self.token = token
        }
    }

    /// The most accounts one erase names.
    public static let maximumEraseAccounts = 1000

    /// `GET /v1/zones/{view}/wait?since=TOKEN&seconds=S`: whether the zone changed past the
    /// token before the time ran out (the lab's stand-in for Apple's push).
    public struct WaitResponse: Codable, Sendable, Hashable {
        public let changed: Bool
        public let token: String

        public init(changed: Bool, token: String) {
            self.changed = changed
            self.token = token
        }
    }
}
