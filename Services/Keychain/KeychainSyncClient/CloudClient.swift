import CloudAPI
public import Foundation
import KeychainItems
public import KeychainSync
import NIOHTTP1
public import ServiceSupport

/// A device's link to cloudd for one account: the engine's requests as cloudd's HTTP calls, the
/// items sealed on the way up and opened on the way down.
public struct CloudClient: Sendable {
    let client: ServiceClient
    let sealer: ItemSealer

    /// `client` holds the device's certificate (its account is the certificate's).
    public init(client: ServiceClient, sealer: ItemSealer) {
        self.client = client
        self.sealer = sealer
    }

    /// Uploads one atomic batch of `view`'s changes.
    public func upload(_ batch: [UploadRequest], view: SyncView) async throws -> [UUID: UploadOutcome] {
        let writes = try batch.map { request in
            CloudAPI.Write(uuid: request.uuid, payload: try request.item.map(sealer.seal), expectedTag: request.expectedTag)
        }
        let answer = try await client.send(
            .POST,
            "/v1/zones/\(view.rawValue)/modify",
            CloudAPI.ModifyRequest(writes: writes),
            as: CloudAPI.ModifyResponse.self,
            decoder: CloudAPI.decoder()
        )
        var outcomes: [UUID: UploadOutcome] = [:]
        for request in batch {
            guard let outcome = answer.outcomes[request.uuid.uuidString] else { continue }
            switch outcome.status {
            case .saved: outcomes[request.uuid] = .saved(changeTag: outcome.changeTag ?? "")
            case .deleted: outcomes[request.uuid] = .deleted
            case .notAttempted: outcomes[request.uuid] = .notAttempted
            case .conflict:
                let server = try outcome.server.map { record in
                    CloudItem(uuid: record.uuid, changeTag: record.changeTag, item: try sealer.open(record.payload, uuid: record.uuid))
                }
                outcomes[request.uuid] = .conflict(server: server)
            }
        }
        return outcomes
    }

    /// What a fetch gave: the changes, or a token the zone never gave.
    public enum Fetched: Sendable {
        case changes([CloudChange], token: String, moreComing: Bool)
        case tokenExpired
    }

    /// Waits up to `seconds` for `view`'s zone to change past `token` (the lab's push): true when
    /// it did.
    public func wait(view: SyncView, since token: String?, seconds: Int) async throws -> Bool {
        let since = token.map { "&since=\($0)" } ?? ""
        // The call lasts as long as cloudd holds it, and a margin for the answer.
        let answer = try await client.get(
            "/v1/zones/\(view.rawValue)/wait?seconds=\(seconds)\(since)",
            as: CloudAPI.WaitResponse.self,
            decoder: CloudAPI.decoder(),
            deadline: max(ServiceClient.defaultDeadline, .seconds(seconds + 10))
        )
        return answer.changed
    }

    /// `view`'s changes since `token`.
    public func changes(view: SyncView, since token: String?) async throws -> Fetched {
        let query = token.map { "?since=\($0)" } ?? ""
        do {
            let page = try await client.get(
                "/v1/zones/\(view.rawValue)/changes\(query)",
                as: CloudAPI.ChangesResponse.self,
                decoder: CloudAPI.decoder()
            )
            let changes = try page.changes.map { change -> CloudChange in
                guard !change.deleted, let tag = change.changeTag, let payload = change.payload else { return .deleted(change.uuid) }
                return .saved(CloudItem(uuid: change.uuid, changeTag: tag, item: try sealer.open(payload, uuid: change.uuid)))
            }
            return .changes(changes, token: page.token, moreComing: page.moreComing)
        } catch let failure as ServiceClient.Failure where failure.status == 410 {
            return .tokenExpired
        }
    }
}
