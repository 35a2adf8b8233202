import Foundation
import Hummingbird
import KeychainAPI
import KeychainItems
import KeychainTypes
import Logging
import ServiceSupport

extension KeychainRoutes {
    /// The most changes one feed answer carries.
    static let syncPageLimit = 200
    /// The most writes and deletes one apply carries (a fetch page is 400 records).
    static let syncApplyLimit = 1000

    /// What a device's sync engine reads and writes of its own keychain (docs/icloud-keychain.md):
    /// the changes of its synchronizable items, queued with each write, and the cloud's copies,
    /// which keychaind writes without queueing them again. The device is its certificate's; its
    /// account is cloudd's concern.
    func addSyncRoutes(to router: Router<DeviceRequestContext>) {
        router.get("/v1/sync/changes") { request, context in
            let device = try await Self.device(context)
            let query = request.uri.queryParameters
            let after = Int64(query.get("after") ?? "0") ?? 0
            let limit = min(Self.syncPageLimit, max(1, Int(query.get("limit") ?? "") ?? Self.syncPageLimit))
            let keychain = KeychainName.device(device.udid).rawValue
            let seconds = min(30, max(0, Int(query.get("wait") ?? "") ?? 0))
            let version = self.calls.syncWatch.version(keychain)
            var changes = try await self.calls.engine.syncFeed(keychain: keychain, after: after, limit: limit)
            // A long poll: with nothing to take, the answer waits for the next change.
            if changes.isEmpty, seconds > 0, await self.calls.syncWatch.wait(keychain, after: version, timeout: .seconds(seconds)) {
                changes = try await self.calls.engine.syncFeed(keychain: keychain, after: after, limit: limit)
            }
            return try Self.json(
                KeychainAPI.SyncChanges(
                    changes: changes.map { .init(sequence: $0.sequence, item: .init($0.item), deleted: $0.deleted) }
                )
            )
        }
        router.delete("/v1/sync/changes") { request, context in
            let device = try await Self.device(context)
            guard let through = request.uri.queryParameters.get("through").flatMap({ Int64($0) }) else {
                throw Self.problem(.badRequest, "name the last change taken: through=SEQUENCE")
            }
            try await self.calls.engine.forgetSyncChanges(keychain: KeychainName.device(device.udid).rawValue, through: through)
            return try Self.json(["status": "ok"])
        }
        router.post("/v1/sync/rescan") { _, context in
            let device = try await Self.device(context)
            let queued = try await self.calls.engine.queueEverySynced(keychain: KeychainName.device(device.udid).rawValue)
            context.logger.info("synced items queued for a rescan", metadata: ["device.udid": "\(device.udid)", "items": "\(queued)"])
            return try Self.json(["status": "ok"])
        }
        router.post("/v1/sync/apply") { request, context in
            let device = try await Self.device(context)
            let body = try await Self.decode(KeychainAPI.SyncApply.self, request, context)
            guard body.writes.count + body.deletes.count <= Self.syncApplyLimit else {
                throw Self.problem(.badRequest, "at most \(Self.syncApplyLimit) writes and deletes at once")
            }
            // An identity is a certificate and a key joined at query time, never stored as one.
            if body.writes.contains(where: { $0.itemClass == .identity }) {
                throw Self.problem(.badRequest, "an identity travels as its certificate and its key, not as one item")
            }
            do {
                try await self.calls.engine.applyFromCloud(
                    keychain: KeychainName.device(device.udid).rawValue,
                    writes: body.writes.map(\.item),
                    deletes: body.deletes,
                    deleteGroups: body.deleteGroups ?? []
                )
            } catch {
                context.logger.error("cloud changes not applied", metadata: ["device.udid": "\(device.udid)", "error": "\(error)"])
                throw error
            }
            context.logger.debug(
                "cloud changes applied",
                metadata: ["device.udid": "\(device.udid)", "writes": "\(body.writes.count)", "deletes": "\(body.deletes.count)"]
            )
            return try Self.json(["status": "ok"])
        }
    }
}
