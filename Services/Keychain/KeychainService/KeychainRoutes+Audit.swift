import Foundation
import Hummingbird
import KeychainAPI
import ServiceSupport

extension KeychainRoutes {
    /// `GET /v1/admin/audit?device=UDID[&since=ISO8601][&limit=N]`: the latest decisions keychaind
    /// made for a device's apps, newest last, from the lines it keeps in memory (the last 4096 or
    /// more): what `kclab test` explains after a run. For the lab's operator only; values never.
    func addAuditRoute(to router: Router<DeviceRequestContext>) {
        router.get("/v1/admin/audit") { request, context in
            _ = try await Self.administrator(context)
            let parameters = request.uri.queryParameters
            guard let device = parameters.get("device").map({ String($0) }), !device.isEmpty else {
                throw Self.problem(.badRequest, "name the device: device=UDID")
            }
            var since: Date? = nil
            if let text = parameters.get("since").map({ String($0) }) {
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw Self.problem(.badRequest, "since must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not '\(text)'")
                }
                since = date
            }
            let limit = parameters.get("limit").map { String($0) }
            guard let count = limit.map(Int.init) ?? KeychainAuditLog.recentCapacity, (1...KeychainAuditLog.recentCapacity).contains(count) else {
                throw Self.problem(.badRequest, "limit must be 1 to \(KeychainAuditLog.recentCapacity)")
            }
            let entries = calls.recorder.audit.recent(device: device, since: since, limit: count)
            return try RouteSupport.json(KeychainAPI.AuditEntries(entries: entries), encoder: KeychainAPI.AdminItems.encoder())
        }
    }
}
