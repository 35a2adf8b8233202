public import Foundation
import KeychainAPI
public import KeychainItems
import NIOHTTP1
public import ServiceSupport

/// A device's own keychain as its sync engines reach it in keychaind: the queued changes of its
/// synchronizable items, and the cloud's copies written back without being queued again.
public struct KeychaindLink: SyncedKeychain {
    let client: ServiceClient

    /// `client` holds the device's certificate: keychaind serves that device's keychain.
    public init(client: ServiceClient) {
        self.client = client
    }

    /// One queued change: the item now, and whether it left the cloud.
    public struct Change: Sendable {
        public let sequence: Int64
        public let item: KeychainItem
        public let deleted: Bool
    }

    /// The changes after `sequence`; when there are none and `wait` is given, keychaind answers
    /// at the next change or when the wait runs out (then with none).
    public func changes(after sequence: Int64, wait: Duration? = nil) async throws -> [Change] {
        let seconds = wait.map { "&wait=\($0.components.seconds)" } ?? ""
        let page = try await client.get("/v1/sync/changes?after=\(sequence)\(seconds)", as: KeychainAPI.SyncChanges.self)
        return page.changes.map { Change(sequence: $0.sequence, item: $0.item.item, deleted: $0.deleted) }
    }

    /// keychaind may forget the changes up to `sequence`: every one was taken and uploaded.
    public func forget(through sequence: Int64) async throws {
        _ = try await client.send(.DELETE, "/v1/sync/changes?through=\(sequence)", [String: String](), as: [String: String].self)
    }

    public func apply(writes: [KeychainItem], deletes: [UUID]) async throws {
        try await apply(KeychainAPI.SyncApply(writes: writes.map(KeychainAPI.SyncedItem.init), deletes: deletes))
    }

    /// Asks keychaind to queue every synchronizable item of the device as a change (CKKS's scan
    /// of local items), so the engines upload what the account lacks.
    public func rescan() async throws {
        _ = try await client.send(.POST, "/v1/sync/rescan", [String: String](), as: [String: String].self)
    }

    /// Deletes every synchronizable item of `groups` from the device, without tombstones.
    public func deleteSynced(groups: Set<String>) async throws {
        try await apply(KeychainAPI.SyncApply(deleteGroups: groups.sorted()))
    }

    private func apply(_ body: KeychainAPI.SyncApply) async throws {
        _ = try await client.send(.POST, "/v1/sync/apply", body, as: [String: String].self)
    }
}
